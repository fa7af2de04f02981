import {
  IMAGE_KINDS,
  type ImageKind,
  MAX_IMAGE_BYTES,
  newId,
  pixelBudgetMessage,
  withinPixelBudget,
} from '@idv/core';
import type { Mode, Store, UploadRecord } from '@idv/store';
import { type AppDeps, nowOf } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import { imageSize } from '../http/image-size.ts';
import { sniffImageType, type UploadedImage } from '../http/images.ts';

/**
 * Direct uploads (docs/decisions.md, "Large uploads"): the caller asks for presigned PUT
 * targets, sends each image straight to the staging bucket, then names the uploads in a
 * verify. The images never pass through the API gateway, whose 6 MB cap is below the spec's
 * three 12 MB images. A verify reads them back and applies the multipart path's checks.
 */

/** A presigned PUT works for 10 minutes: long enough for 12 MB on a slow phone link. */
export const UPLOAD_PUT_SECONDS = 600;
/** An upload may be named by a verify for an hour; then the purge deletes it. */
export const UPLOAD_USABLE_SECONDS = 3600;

export type UploadContentType = UploadRecord['content_type'];

export interface UploadRequestFile {
  kind: ImageKind;
  content_type: UploadContentType;
  size: number;
}

/** Who asks: an organisation in a mode, and the session when a client token asks. */
export interface UploadOwner {
  orgId: string;
  mode: Mode;
  sessionId: string | null;
}

export interface UploadTarget {
  id: string;
  kind: ImageKind;
  method: 'PUT';
  url: string;
  headers: { 'content-type': UploadContentType };
  size: number;
  expires_at: string;
  usable_until: string;
}

/** Creates one upload per file: its record, then its presigned PUT. */
export async function createUploads(
  deps: AppDeps,
  owner: UploadOwner,
  files: UploadRequestFile[],
): Promise<UploadTarget[]> {
  const seen = new Set<ImageKind>();
  for (const file of files) {
    if (seen.has(file.kind)) throw new ApiError('invalid_request', `${file.kind}: listed more than once`);
    seen.add(file.kind);
    if (file.size > MAX_IMAGE_BYTES) {
      throw new ApiError(
        'image_too_large',
        `${file.kind}: ${file.size} bytes; each image may be at most 12 MB (12,582,912 bytes)`,
      );
    }
  }
  const now = nowOf(deps);
  const putExpires = new Date(now.getTime() + UPLOAD_PUT_SECONDS * 1000);
  const usableUntil = new Date(now.getTime() + UPLOAD_USABLE_SECONDS * 1000);
  const records: UploadRecord[] = files.map((file) => {
    const id = newId('upl');
    return {
      id,
      org_id: owner.orgId,
      mode: owner.mode,
      session_id: owner.sessionId,
      kind: file.kind,
      content_type: file.content_type,
      size: file.size,
      // Scoped like the images: organisation, then mode, so a lifecycle or audit can read it.
      key: `uploads/${owner.orgId}/${owner.mode}/${id}/${file.kind}`,
      created_at: now.toISOString(),
      put_expires_at: putExpires.toISOString(),
      usable_until: usableUntil.toISOString(),
      used_at: null,
      verification_id: null,
    };
  });
  await deps.store.transact(deps.store.uploadRecords.createItems(records));
  return Promise.all(
    records.map(async (record) => ({
      id: record.id,
      kind: record.kind,
      method: 'PUT' as const,
      url: await deps.store.uploads.presignPut(
        record.key,
        record.content_type,
        record.size,
        UPLOAD_PUT_SECONDS,
        now,
      ),
      headers: { 'content-type': record.content_type },
      size: record.size,
      expires_at: record.put_expires_at,
      usable_until: record.usable_until,
    })),
  );
}

type TransactItem = Parameters<Store['transact']>[0][number];

/**
 * The images of a verify that names uploads, handed to the verify service: it hashes the ids
 * for idempotency, loads the images once its key is claimed, saves the uploads as used with
 * the verification, and settles them when it ends.
 */
export interface UploadSource {
  ids: Partial<Record<ImageKind, string>>;
  /** Checks, claims (all or none) and reads the uploads; the multipart path's checks. */
  load(): Promise<Partial<Record<ImageKind, UploadedImage>>>;
  /** The writes spending the uploads, in the transaction that saves the verification. */
  consumeItems(verificationId: string): TransactItem[];
  /**
   * `saved` or `analysed` (the analyzer saw the images, e.g. refused them as unreadable): the
   * uploads are spent and their objects deleted, so no image outlives its analysis. `untouched`
   * (nothing analysed: time-out, 503, a refused request): released for a retry.
   */
  settle(outcome: 'saved' | 'analysed' | 'untouched'): Promise<void>;
}

export function uploadSource(
  deps: AppDeps,
  owner: UploadOwner,
  ids: Partial<Record<ImageKind, string>>,
): UploadSource {
  const named = IMAGE_KINDS.flatMap((kind) => (ids[kind] ? [[kind, ids[kind]] as const] : []));
  const idList = named.map(([, id]) => id);
  let claimId: string | null = null;
  let keys: string[] = [];
  const now = nowOf(deps);

  return {
    ids,
    async load() {
      const records = await Promise.all(named.map(([kind, id]) => checkedRecord(deps, owner, kind, id, now)));
      keys = records.map((r) => r.key);
      const claim = await deps.store.uploadRecords.claim(idList, now);
      if (claim.state !== 'claimed') throw await claimRefusal(deps, named, now);
      claimId = claim.claimId;
      const images: Partial<Record<ImageKind, UploadedImage>> = {};
      try {
        for (const record of records) images[record.kind] = await readUpload(deps, record);
      } catch (error) {
        // A file refused for what it is stays refused: spent and deleted, never kept.
        const code = (error as ApiError).code;
        if (code === 'invalid_image' || code === 'image_too_large') await this.settle('analysed');
        throw error;
      }
      return images;
    },
    consumeItems(verificationId) {
      if (!claimId) return [];
      const claim = claimId;
      return idList.map((id) => deps.store.uploadRecords.consumeItem(id, claim, verificationId, now));
    },
    async settle(outcome) {
      if (!claimId) return;
      const claim = claimId;
      claimId = null;
      if (outcome === 'untouched') {
        await deps.store.uploadRecords.release(idList, claim).catch(logFailure('upload release'));
        return;
      }
      if (outcome === 'analysed') {
        await deps.store.uploadRecords.consume(idList, claim, now).catch(logFailure('upload spending'));
      }
      await deps.store.uploads.deleteMany(keys).catch(logFailure('upload deletion'));
    },
  };
}

/** The upload named for `kind`, if it may be used by this caller; the refusal otherwise. */
async function checkedRecord(
  deps: AppDeps,
  owner: UploadOwner,
  kind: ImageKind,
  id: string,
  now: Date,
): Promise<UploadRecord> {
  const record = await deps.store.uploadRecords.get(id);
  // Another organisation's, another mode's or another session's upload names nothing here.
  if (
    !record ||
    record.org_id !== owner.orgId ||
    record.mode !== owner.mode ||
    record.session_id !== owner.sessionId
  ) {
    const whose = owner.sessionId ? 'this session' : 'this key';
    throw new ApiError('invalid_request', `${kind}: no upload ${id} was made with ${whose}`);
  }
  if (record.kind !== kind) {
    throw new ApiError('invalid_request', `${kind}: upload ${id} was made for the ${record.kind} image`);
  }
  if (record.upload_state === 'used') {
    throw new ApiError(
      'conflict',
      `${kind}: upload ${id} was already used by a verification; uploads are single use`,
    );
  }
  if (record.upload_state === 'purged' || Date.parse(record.usable_until) <= now.getTime()) {
    throw new ApiError(
      'invalid_request',
      `${kind}: upload ${id} expired at ${record.usable_until}; create a new upload with POST /v1/uploads`,
    );
  }
  return record;
}

/** Why a claim failed, read again: used meanwhile, or held by a verification still running. */
async function claimRefusal(
  deps: AppDeps,
  named: (readonly [ImageKind, string])[],
  now: Date,
): Promise<ApiError> {
  for (const [kind, id] of named) {
    const record = await deps.store.uploadRecords.get(id);
    if (record?.upload_state === 'used') {
      return new ApiError(
        'conflict',
        `${kind}: upload ${id} was already used by a verification; uploads are single use`,
      );
    }
    if (!record || Date.parse(record.usable_until) <= now.getTime()) {
      return new ApiError('invalid_request', `${kind}: upload ${id} has expired; create a new upload`);
    }
  }
  return new ApiError('conflict', 'another verification is reading these uploads; wait for its answer');
}

/** The uploaded bytes, checked as a multipart part is: size, format, pixel budget. */
async function readUpload(deps: AppDeps, record: UploadRecord): Promise<UploadedImage> {
  const { kind, id } = record;
  const head = await deps.store.uploads.head(record.key);
  if (!head) {
    throw new ApiError(
      'invalid_request',
      `${kind}: nothing was uploaded to ${id}; PUT the file to its url first`,
    );
  }
  // S3 holds the body to the signed size; checked again, since the bucket is not the API.
  if (head.size > MAX_IMAGE_BYTES) {
    throw new ApiError('image_too_large', `${kind}: the image is ${head.size} bytes; the limit is 12 MB`);
  }
  if (head.size === 0) throw new ApiError('invalid_image', `${kind}: the file is empty`);
  const bytes = await deps.store.uploads.get(record.key);
  if (!bytes) throw new ApiError('invalid_request', `${kind}: nothing was uploaded to ${id}`);
  const contentType = sniffImageType(bytes);
  if (!contentType) throw new ApiError('invalid_image', `${kind}: not a JPEG, PNG or WebP image`);
  const size = imageSize(bytes, contentType);
  if (size && !withinPixelBudget(size.width, size.height)) {
    throw new ApiError('invalid_image', `${kind}: ${pixelBudgetMessage(size.width, size.height)}`);
  }
  return { bytes, contentType };
}

function logFailure(what: string) {
  return (error: unknown) =>
    console.error(JSON.stringify({ level: 'error', msg: `${what} failed`, error: String(error) }));
}
