import { createHash } from 'node:crypto';
import { ApiError, judge, newId, type Verification, VerificationSchema } from '@idv/core';
import { billingMonth, type Mode, type Store, type StoredImage, type VerificationRecord } from '@idv/store';
import {
  type AnalysisOutcome,
  type AnalysisRequest,
  AnalysisUnavailableError,
  type ImageKind,
} from '../analyzer.ts';
import type { AppDeps } from '../deps.ts';
import type { UploadedImage } from '../http/images.ts';
import { estimateCost } from './cost.ts';

/** How long one analysis may take before the call answers 503 (clients wait ≥ 60 s). */
export const ANALYSIS_TIMEOUT_MS = 45_000;

type TransactItem = Parameters<Store['transact']>[0][number];

export interface VerifyCaller {
  orgId: string;
  appId: string;
  mode: Mode;
  /** Key id or session id, for the audit journal. */
  actor: string;
  /** The organisation's image retention (days), read once by the caller with the organisation. */
  retentionDays: number;
}

export interface VerifyInput {
  caller: VerifyCaller;
  images: Partial<Record<ImageKind, UploadedImage>>;
  documentType?: 'passport' | 'cni';
  idempotencyKey?: string;
  sessionId?: string;
  /**
   * A session upload: the write that completes the session, saved in the same transaction as
   * the verification (so the client token is spent exactly when a verification exists).
   */
  completeSession?: (verificationId: string) => TransactItem;
  /** performance.now() when the request arrived, for latency_ms. */
  startedAt: number;
}

export interface VerifyResult {
  verification: Verification;
  replayed: boolean;
}

/**
 * One verification, from uploaded images to the saved, judged result:
 * claim the idempotency key → store the images (encrypted) → analyze → judge →
 * save verification, usage and idempotent response in one transaction → drop test images →
 * emit the event. Any failure before the transaction leaves nothing behind.
 */
export async function verify(deps: AppDeps, input: VerifyInput): Promise<VerifyResult> {
  const { store } = deps;
  const { caller } = input;
  const now = deps.now?.() ?? new Date();
  const requestHash = hashRequest(input);

  if (input.idempotencyKey) {
    const claim = await store.idempotency.begin(
      caller.orgId,
      caller.mode,
      input.idempotencyKey,
      requestHash,
      now,
    );
    if (claim.state === 'replay')
      return { verification: claim.response.body as Verification, replayed: true };
    if (claim.state === 'mismatch') {
      throw new ApiError('idempotency_key_reused', 'this Idempotency-Key was used with a different request');
    }
    if (claim.state === 'in_progress') {
      throw new ApiError(
        'idempotency_in_progress',
        'a request with this Idempotency-Key is still running; retry shortly',
      );
    }
  }

  const id = newId('vrf');
  const stored: Partial<Record<ImageKind, StoredImage>> = {};
  const release = async () => {
    await store.images.deleteMany(Object.values(stored).map((s) => s.key)).catch(logFailure('image cleanup'));
    if (input.idempotencyKey) {
      await store.idempotency
        .release(caller.orgId, caller.mode, input.idempotencyKey, requestHash)
        .catch(logFailure('idempotency release'));
    }
  };

  let saved = false;
  try {
    const request = await storeImages(deps, caller, id, input, stored);
    const analysisStart = performance.now();
    const outcome = await analyzeWithTimeout(deps, request);
    const analyzerMs = performance.now() - analysisStart;
    if (outcome.kind === 'refused') {
      throw new ApiError(outcome.code, `${outcome.image}: ${outcome.message}`);
    }

    const judgement = judge(outcome.observations, { now });
    if (input.completeSession && input.documentType && judgement.document_type !== 'unknown') {
      // A session that imposes its document refuses another one; nothing is kept or billed.
      if (judgement.document_type !== input.documentType) {
        throw new ApiError(
          'invalid_request',
          `this session expects a ${input.documentType === 'cni' ? 'identity card' : 'passport'}; the photos show another document`,
        );
      }
    }
    const latencyMs = Math.round(performance.now() - input.startedAt);
    const verification = VerificationSchema.parse({
      id,
      verdict: judgement.verdict,
      final_verdict: null,
      status: judgement.status,
      score: judgement.score,
      document_type: judgement.document_type,
      checks: judgement.checks,
      latency_ms: latencyMs,
      created_at: now.toISOString(),
      document: judgement.document,
      fields: judgement.fields,
      face_match: judgement.face_match,
      timings: { ...outcome.observations.timings, analysis_ms: Math.round(analyzerMs), total_ms: latencyMs },
      mode: caller.mode,
    } satisfies Verification);

    const live = caller.mode === 'live';
    const retentionDays = live ? caller.retentionDays : 0;
    const storedBytes = Object.values(stored).reduce((sum, s) => sum + s.bytes, 0);
    const cost = estimateCost({
      analyzerMs,
      storedBytes: live ? storedBytes : 0,
      retentionDays,
      s3Requests: Object.keys(stored).length * 2,
    });
    const purgeAfter = live ? new Date(now.getTime() + retentionDays * 86_400_000) : null;
    const record: VerificationRecord = {
      verification,
      org_id: caller.orgId,
      app_id: caller.appId,
      mode: caller.mode,
      images: live ? stored : {},
      images_purge_after: purgeAfter?.toISOString() ?? null,
      images_purged_at: null,
      cost,
      session_id: input.sessionId ?? null,
      billing_month: live ? billingMonth(now) : null,
    };

    const writes = [store.verifications.putItem(record)];
    if (live) {
      writes.push(store.usage.countItem(caller.orgId, billingMonth(now), cost.total_usd));
      if (purgeAfter && Object.keys(stored).length > 0) {
        writes.push(
          store.imagePurges.scheduleItem(
            id,
            Object.values(stored).map((s) => s.key),
            purgeAfter,
          ),
        );
      }
    }
    if (input.completeSession) writes.push(input.completeSession(id));
    if (input.idempotencyKey) {
      writes.push(
        store.idempotency.completeItem(
          caller.orgId,
          caller.mode,
          input.idempotencyKey,
          requestHash,
          { status: 200, body: verification },
          now,
        ),
      );
    }
    await store.transact(writes);
    saved = true;

    if (!live) {
      // Test mode keeps no image: they existed only while being analysed.
      await store.images
        .deleteMany(Object.values(stored).map((s) => s.key))
        .catch(logFailure('test image deletion'));
    }
    await deps.events
      ?.publishVerificationCompleted({
        orgId: caller.orgId,
        appId: caller.appId,
        mode: caller.mode,
        verification,
      })
      .catch(logFailure('event publication'));
    return { verification, replayed: false };
  } finally {
    if (!saved) await release();
  }
}

async function storeImages(
  deps: AppDeps,
  caller: VerifyCaller,
  id: string,
  input: VerifyInput,
  stored: Partial<Record<ImageKind, StoredImage>>,
): Promise<AnalysisRequest> {
  const request: AnalysisRequest = { images: {}, documentType: input.documentType };
  await Promise.all(
    Object.entries(input.images).map(async ([kind, image]) => {
      if (!image) return;
      const key = `images/${caller.orgId}/${caller.mode}/${id}/${kind}`;
      await deps.store.images.put(key, image.bytes, image.contentType);
      stored[kind as ImageKind] = { key, content_type: image.contentType, bytes: image.bytes.byteLength };
      request.images[kind as ImageKind] = {
        bytes: image.bytes,
        contentType: image.contentType,
        storageKey: key,
      };
    }),
  );
  return request;
}

async function analyzeWithTimeout(deps: AppDeps, request: AnalysisRequest): Promise<AnalysisOutcome> {
  if (!deps.analyzer)
    throw new ApiError('analysis_unavailable', 'image analysis is not configured on this server');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AnalysisUnavailableError('analysis timed out')),
      deps.analysisTimeoutMs ?? ANALYSIS_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([deps.analyzer.analyze(request), timeout]);
  } catch (error) {
    console.error(
      JSON.stringify({
        level: 'error',
        msg: 'analysis failed',
        error: String((error as Error)?.stack ?? error),
      }),
    );
    throw new ApiError(
      'analysis_unavailable',
      'image analysis is temporarily unavailable; retry in a moment',
    );
  } finally {
    clearTimeout(timer);
  }
}

/** Same key + same request ⇔ same hash: the route, the images' digests and the options. */
function hashRequest(input: VerifyInput): string {
  const hash = createHash('sha256');
  hash.update(`verify|${input.sessionId ?? ''}|${input.documentType ?? ''}`);
  for (const kind of ['front', 'back', 'selfie'] as const) {
    const image = input.images[kind];
    hash.update(`|${kind}:${image ? createHash('sha256').update(image.bytes).digest('hex') : '-'}`);
  }
  return hash.digest('hex');
}

function logFailure(what: string) {
  return (error: unknown) =>
    console.error(JSON.stringify({ level: 'error', msg: `${what} failed`, error: String(error) }));
}
