import { createHash } from 'node:crypto';
import {
  type AnalysisOutcome,
  type AnalysisRequest,
  IMAGE_KINDS,
  type ImageKind,
  judge,
  newId,
  type Observations,
  type RequestedDocumentType,
  type Verification,
  VerificationSchema,
} from '@idv/core';
import { billingMonth, type Mode, type Store, type StoredImage, type VerificationRecord } from '@idv/store';
import { AnalysisUnavailableError } from '../analyzer.ts';
import { type AppDeps, nowOf } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import type { UploadedImage } from '../http/images.ts';
import { type AnalysisTicket, analysisQueueOf } from './analysis-queue.ts';
import { estimateCost } from './cost.ts';
import type { UploadSource } from './uploads.ts';

/** How long one analysis may take before the call answers 503 (clients wait ≥ 60 s). */
export const ANALYSIS_TIMEOUT_MS = 45_000;

export interface VerifyCaller {
  orgId: string;
  appId: string;
  mode: Mode;
  /** Key id or session id, for the audit journal. */
  actor: string;
  /** The organisation's image retention (days), read once by the caller with the organisation. */
  retentionDays: number;
}

type TransactItem = Parameters<Store['transact']>[0][number];

export interface VerifyInput {
  caller: VerifyCaller;
  /** The images of a multipart request (empty when they are named uploads). */
  images: Partial<Record<ImageKind, UploadedImage>>;
  /** Images named by direct uploads, loaded once the idempotency key is claimed. */
  uploads?: UploadSource;
  documentType?: RequestedDocumentType;
  idempotencyKey?: string;
  sessionId?: string;
  /** The session's file reference, kept on the verification so the console can search by it. */
  reference?: string | null;
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

/** What one verification carries from step to step. */
interface VerifyRun {
  deps: AppDeps;
  input: VerifyInput;
  id: string;
  now: Date;
  requestHash: string;
  live: boolean;
  /** The images analysed: the multipart parts, or the uploads once loaded. */
  images: Partial<Record<ImageKind, UploadedImage>>;
  /** True once the analyzer saw the images (a refusal included). */
  analysed: boolean;
  /** The images written to S3 so far, filled in by storeImages (cleaned up on failure). */
  stored: Partial<Record<ImageKind, StoredImage>>;
}

/** The analyzer's observations and how long it took. */
interface Analysis {
  observations: Observations;
  analyzerMs: number;
}

/**
 * One verification, from uploaded images to the saved, judged result:
 * claim the idempotency key → store the images (encrypted) → analyze → judge →
 * save verification, usage and idempotent response in one transaction → drop test images →
 * emit the event. Any failure before the transaction leaves nothing behind. A place in the
 * analysis queue is taken before any image is written: when the queue is full the request is
 * refused (503, retry-after) with nothing stored.
 */
export async function verify(deps: AppDeps, input: VerifyInput): Promise<VerifyResult> {
  const run: VerifyRun = {
    deps,
    input,
    id: newId('vrf'),
    now: nowOf(deps),
    requestHash: hashRequest(input),
    live: input.caller.mode === 'live',
    images: input.images,
    analysed: false,
    stored: {},
  };
  const replayed = await claimIdempotencyKey(run);
  if (replayed) return { verification: replayed, replayed: true };

  let saved = false;
  let ticket: AnalysisTicket | undefined;
  try {
    ticket = analysisQueueOf(deps).admit();
    if (input.uploads) run.images = await input.uploads.load();
    const request = await storeImages(run);
    const analysis = await analyze(run, request, ticket);
    const verification = judgeVerification(run, analysis);
    await persist(run, verification, analysis.analyzerMs);
    saved = true;
    await dropTestImages(run);
    await publishCompleted(run, verification);
    return { verification, replayed: false };
  } finally {
    ticket?.release();
    if (!saved) await releaseEverything(run);
    await input.uploads?.settle(saved ? 'saved' : run.analysed ? 'analysed' : 'untouched');
  }
}

/**
 * Claims the Idempotency-Key, if any. Returns the stored verification of an earlier identical
 * request (a replay); refuses a key reused with another request, or one still running.
 */
async function claimIdempotencyKey(run: VerifyRun): Promise<Verification | null> {
  const { caller, idempotencyKey } = run.input;
  if (!idempotencyKey) return null;
  const claim = await run.deps.store.idempotency.begin(
    caller.orgId,
    caller.mode,
    idempotencyKey,
    run.requestHash,
    run.now,
  );
  if (claim.state === 'replay') return claim.response.body as Verification;
  if (claim.state === 'mismatch') {
    throw new ApiError('idempotency_key_reused', 'this Idempotency-Key was used with a different request');
  }
  if (claim.state === 'in_progress') {
    throw new ApiError(
      'idempotency_in_progress',
      'a request with this Idempotency-Key is still running; retry shortly',
    );
  }
  return null;
}

/** Undoes what a failed verification began: its stored images and its idempotency claim. */
async function releaseEverything(run: VerifyRun): Promise<void> {
  const { store } = run.deps;
  const { caller, idempotencyKey } = run.input;
  await store.images.deleteMany(storedKeys(run)).catch(logFailure('image cleanup'));
  if (idempotencyKey) {
    await store.idempotency
      .release(caller.orgId, caller.mode, idempotencyKey, run.requestHash)
      .catch(logFailure('idempotency release'));
  }
}

/** Writes every uploaded image (encrypted) and builds the analyzer's request from them. */
async function storeImages(run: VerifyRun): Promise<AnalysisRequest> {
  const { caller, documentType } = run.input;
  const { images } = run;
  const request: AnalysisRequest = { images: {}, documentType };
  await Promise.all(
    Object.entries(images).map(async ([kind, image]) => {
      if (!image) return;
      const key = `images/${caller.orgId}/${caller.mode}/${run.id}/${kind}`;
      await run.deps.store.images.put(key, image.bytes, image.contentType);
      run.stored[kind as ImageKind] = { key, content_type: image.contentType, bytes: image.bytes.byteLength };
      request.images[kind as ImageKind] = {
        bytes: image.bytes,
        contentType: image.contentType,
        storageKey: key,
      };
    }),
  );
  return request;
}

/** Runs the analyzer; an image it refuses (e.g. unreadable) becomes that error. */
async function analyze(run: VerifyRun, request: AnalysisRequest, ticket: AnalysisTicket): Promise<Analysis> {
  const start = performance.now();
  const outcome = await analyzeWithTimeout(run.deps, request, ticket);
  run.analysed = true;
  const analyzerMs = performance.now() - start;
  if (outcome.kind === 'refused') {
    throw new ApiError(outcome.code, `${outcome.image}: ${outcome.message}`);
  }
  return { observations: outcome.observations, analyzerMs };
}

/** Judges the observations (core) into the public Verification. */
function judgeVerification(run: VerifyRun, { observations, analyzerMs }: Analysis): Verification {
  const judgement = judge(observations, { now: run.now });
  refuseOtherDocument(run.input, judgement.document_type);
  const latencyMs = Math.round(performance.now() - run.input.startedAt);
  return VerificationSchema.parse({
    id: run.id,
    verdict: judgement.verdict,
    final_verdict: null,
    status: judgement.status,
    score: judgement.score,
    document_type: judgement.document_type,
    checks: judgement.checks,
    latency_ms: latencyMs,
    created_at: run.now.toISOString(),
    document: judgement.document,
    fields: judgement.fields,
    face_match: judgement.face_match,
    timings: { ...observations.timings, analysis_ms: Math.round(analyzerMs), total_ms: latencyMs },
    mode: run.input.caller.mode,
  } satisfies Verification);
}

/** A session that imposes its document refuses another one; nothing is then kept or billed. */
function refuseOtherDocument(input: VerifyInput, seen: Verification['document_type']): void {
  if (!input.completeSession || !input.documentType || seen === 'unknown' || seen === input.documentType)
    return;
  const expected = input.documentType === 'cni' ? 'an identity card' : 'a passport';
  throw new ApiError('invalid_request', `this session expects ${expected}; the photos show another document`);
}

/**
 * Saves the verification with its side effects in one transaction: the usage count and the
 * purge schedule (live only) and the idempotent response, so none exists without the others.
 */
async function persist(run: VerifyRun, verification: Verification, analyzerMs: number): Promise<void> {
  const { store } = run.deps;
  const { caller, idempotencyKey, sessionId } = run.input;
  const { live, now, stored } = run;
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
    session_id: sessionId ?? null,
    reference: run.input.reference ?? null,
    billing_month: live ? billingMonth(now) : null,
  };

  const writes = [store.verifications.putItem(record)];
  if (live) {
    writes.push(store.usage.countItem(caller.orgId, billingMonth(now), cost.total_usd));
    if (purgeAfter && Object.keys(stored).length > 0) {
      writes.push(store.imagePurges.scheduleItem(run.id, storedKeys(run), purgeAfter));
    }
  }
  if (run.input.completeSession) writes.push(run.input.completeSession(run.id));
  if (run.input.uploads) writes.push(...run.input.uploads.consumeItems(run.id));
  if (idempotencyKey) {
    writes.push(
      store.idempotency.completeItem(
        caller.orgId,
        caller.mode,
        idempotencyKey,
        run.requestHash,
        { status: 200, body: verification },
        now,
      ),
    );
  }
  await store.transact(writes);
}

/** Test mode keeps no image: they existed only while being analysed. */
async function dropTestImages(run: VerifyRun): Promise<void> {
  if (run.live) return;
  await run.deps.store.images.deleteMany(storedKeys(run)).catch(logFailure('test image deletion'));
}

/** Emits `verification.completed`; a failure is logged, never the caller's problem. */
async function publishCompleted(run: VerifyRun, verification: Verification): Promise<void> {
  const { caller } = run.input;
  await run.deps.events
    ?.publishVerificationCompleted({
      orgId: caller.orgId,
      appId: caller.appId,
      mode: caller.mode,
      verification,
    })
    .catch(logFailure('event publication'));
}

function storedKeys(run: VerifyRun): string[] {
  return Object.values(run.stored).map((s) => s.key);
}

/**
 * The analysis in its queue slot, raced against the time-out. The wait for a slot counts in the
 * time-out (the client waits for both); a timed-out analysis keeps its slot until it really ends,
 * so the cores are never oversubscribed.
 */
async function analyzeWithTimeout(
  deps: AppDeps,
  request: AnalysisRequest,
  ticket: AnalysisTicket,
): Promise<AnalysisOutcome> {
  const analyzer = deps.analyzer;
  if (!analyzer)
    throw new ApiError('analysis_unavailable', 'image analysis is not configured on this server');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AnalysisUnavailableError('analysis timed out')),
      deps.analysisTimeoutMs ?? ANALYSIS_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([ticket.run(() => analyzer.analyze(request)), timeout]);
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

/**
 * Same key + same request ⇔ same hash: the route, the images' digests and the options. Named
 * uploads hash by their ids: they are single use, so an id stands for its bytes, and a replay
 * must be recognised after the first request consumed (and deleted) them.
 */
function hashRequest(input: VerifyInput): string {
  const hash = createHash('sha256');
  hash.update(`verify|${input.sessionId ?? ''}|${input.documentType ?? ''}`);
  if (input.uploads) {
    for (const kind of IMAGE_KINDS) hash.update(`|upload:${kind}:${input.uploads.ids[kind] ?? '-'}`);
    return hash.digest('hex');
  }
  for (const kind of IMAGE_KINDS) {
    const image = input.images[kind];
    hash.update(`|${kind}:${image ? createHash('sha256').update(image.bytes).digest('hex') : '-'}`);
  }
  return hash.digest('hex');
}

function logFailure(what: string) {
  return (error: unknown) =>
    console.error(JSON.stringify({ level: 'error', msg: `${what} failed`, error: String(error) }));
}
