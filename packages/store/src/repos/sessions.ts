import { createHash, timingSafeEqual } from 'node:crypto';
import { GetCommand, PutCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newId, randomAlphanumeric } from '@idv/core';
import { epochSeconds, isConditionFailure, releaseClaim, stripKeys, type Table } from '../table.ts';
import type { Mode } from './api-keys.ts';

export type SessionDocumentType = 'passport' | 'cni';
export type SessionStatus = 'open' | 'completed' | 'expired';

/** A capture session as kept; the client token itself is never stored, only its SHA-256. */
export interface SessionRecord {
  id: string;
  org_id: string;
  app_id: string;
  mode: Mode;
  /** The key that opened it (request log, audit). */
  key_id: string;
  reference: string | null;
  document_type: SessionDocumentType | null;
  /** Stored state: `open` until a successful upload, then `completed`. Expiry is read from the clock. */
  state: 'open' | 'completed';
  created_at: string;
  /** When the client token stops working (ISO 8601). */
  token_expires_at: string;
  completed_at: string | null;
  verification_id: string | null;
  /** When the hosted capture page was first opened (a QR session shows "opened on the phone"). */
  opened_at?: string | null;
  /** The console user who opened it from the console (a QR session); absent for API sessions. */
  created_by?: string | null;
}

/** 40 random characters after `vn_ct_` (~238 bits): unguessable, and only the hash is kept. */
export const CLIENT_TOKEN_RANDOM_LENGTH = 40;
const CLIENT_TOKEN_PATTERN = /^vn_ct_[A-Za-z0-9]{40}$/;
const TOKEN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/**
 * An upload holds the session for this long while it is analysed (the analysis times out at
 * 45 s), so a crashed upload never blocks the session for good.
 */
export const SESSION_UPLOAD_LEASE_SECONDS = 120;
/** A session stays readable (GET) this long after its token expired; then DynamoDB drops it. */
export const SESSION_RETENTION_SECONDS = 30 * 86_400;

export function looksLikeClientToken(credential: string): boolean {
  return CLIENT_TOKEN_PATTERN.test(credential);
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The status a caller sees: an open session past its token's lifetime reads as expired. */
export function sessionStatus(record: SessionRecord, now: Date): SessionStatus {
  if (record.state === 'completed') return 'completed';
  return Date.parse(record.token_expires_at) <= now.getTime() ? 'expired' : 'open';
}

/** Outcome of claiming a session for an upload. */
export type SessionClaim =
  | { state: 'claimed'; claimId: string; session: SessionRecord }
  | { state: 'in_progress' | 'completed' | 'expired' | 'not_found' };

const itemKey = (id: string) => ({ pk: `SES#${id}`, sk: 'SES' });
const listPartition = (orgId: string, mode: Mode) => `ORG#${orgId}#MODE#${mode}#SES`;

/** What opening a session takes (API key or console QR session). */
export interface NewSessionInput {
  orgId: string;
  appId: string;
  mode: Mode;
  /** The key that opened it, or the console user for a QR session. */
  keyId: string;
  reference?: string | null;
  documentType?: SessionDocumentType | null;
  ttlSeconds: number;
  /** A console user opening it from the console (QR session). */
  createdBy?: string | null;
}

export class SessionRepository {
  constructor(private readonly table: Table) {}

  /** Opens a session; returns the client token, which is never retrievable again. */
  async create(
    input: NewSessionInput,
    now = new Date(),
  ): Promise<{ record: SessionRecord; clientToken: string }> {
    const clientToken = `vn_ct_${randomAlphanumeric(CLIENT_TOKEN_RANDOM_LENGTH, TOKEN_ALPHABET)}`;
    const expires = new Date(now.getTime() + input.ttlSeconds * 1000);
    const record: SessionRecord = {
      id: newId('ses'),
      org_id: input.orgId,
      app_id: input.appId,
      mode: input.mode,
      key_id: input.keyId,
      reference: input.reference ?? null,
      document_type: input.documentType ?? null,
      state: 'open',
      created_at: now.toISOString(),
      token_expires_at: expires.toISOString(),
      completed_at: null,
      verification_id: null,
      ...(input.createdBy ? { created_by: input.createdBy } : {}),
    };
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...itemKey(record.id),
          gsi1pk: listPartition(input.orgId, input.mode),
          gsi1sk: `${record.created_at}#${record.id}`,
          ...record,
          token_hash: hashToken(clientToken),
          expires_at: epochSeconds(expires) + SESSION_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return { record, clientToken };
  }

  /** Reads a session of this organisation and mode; anything else is "not found". */
  async get(orgId: string, mode: Mode, id: string): Promise<SessionRecord | null> {
    const record = await this.getById(id);
    return record && record.org_id === orgId && record.mode === mode ? record : null;
  }

  async getById(id: string): Promise<SessionRecord | null> {
    const item = await this.readItem(id);
    return item ? toRecord(item) : null;
  }

  /**
   * The session a client token opens: the token must be the one issued for this very session
   * (compared by hash, in constant time). Expired or completed sessions are still returned so
   * the caller can say why the upload is refused; null means the token does not belong here.
   */
  async findByClientToken(id: string, token: string): Promise<SessionRecord | null> {
    if (!looksLikeClientToken(token)) return null;
    const item = await this.readItem(id);
    if (!item || typeof item.token_hash !== 'string') return null;
    const same = timingSafeEqual(Buffer.from(item.token_hash, 'hex'), Buffer.from(hashToken(token), 'hex'));
    return same ? toRecord(item) : null;
  }

  /**
   * Notes the first opening of the hosted capture page. Only the first counts (conditional),
   * and only while the session is open: a page reloaded later changes nothing.
   */
  async markOpened(id: string, now = new Date()): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: itemKey(id),
          UpdateExpression: 'SET opened_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(opened_at) AND #state = :open',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': now.toISOString(), ':open': 'open' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * Claims an open session for one upload. Of several concurrent uploads exactly one gets
   * `claimed` (a conditional write); the others see `in_progress` while it runs, then
   * `completed` (it succeeded) or may claim again (it failed and released the session).
   */
  async claimUpload(id: string, now = new Date()): Promise<SessionClaim> {
    const claimId = randomAlphanumeric(16);
    const nowSeconds = epochSeconds(now);
    try {
      const out = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: itemKey(id),
          UpdateExpression: 'SET upload_claim = :claim, claim_until = :until',
          ConditionExpression:
            'attribute_exists(pk) AND #state = :open AND token_expires_at > :nowIso AND (attribute_not_exists(claim_until) OR claim_until < :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':claim': claimId,
            ':until': nowSeconds + SESSION_UPLOAD_LEASE_SECONDS,
            ':open': 'open',
            ':nowIso': now.toISOString(),
            ':now': nowSeconds,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { state: 'claimed', claimId, session: toRecord(out.Attributes ?? {}) };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const item = await this.readItem(id);
    if (!item) return { state: 'not_found' };
    const record = toRecord(item);
    const status = sessionStatus(record, now);
    if (status !== 'open') return { state: status };
    return { state: 'in_progress' };
  }

  /**
   * The write that completes a claimed session with its verification, for the transaction
   * that also saves the verification: only the upload holding the claim may complete it, and
   * only once, which is what spends the client token.
   */
  completeItem(
    id: string,
    claimId: string,
    verificationId: string,
    now = new Date(),
  ): NonNullable<TransactWriteCommandInput['TransactItems']>[number] {
    return {
      Update: {
        TableName: this.table.name,
        Key: itemKey(id),
        UpdateExpression:
          'SET #state = :completed, completed_at = :now, verification_id = :vrf REMOVE upload_claim, claim_until',
        ConditionExpression: '#state = :open AND upload_claim = :claim',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':open': 'open',
          ':now': now.toISOString(),
          ':vrf': verificationId,
          ':claim': claimId,
        },
      },
    };
  }

  /** Frees a claim after an upload that changed nothing (402, 422, 503): the session stays usable. */
  async releaseUpload(id: string, claimId: string): Promise<void> {
    await releaseClaim(this.table, itemKey(id), claimId);
  }

  private async readItem(id: string): Promise<Record<string, unknown> | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: itemKey(id), ConsistentRead: true }),
    );
    return out.Item ?? null;
  }
}

function toRecord(item: Record<string, unknown>): SessionRecord {
  const {
    token_hash: _hash,
    upload_claim: _claim,
    claim_until: _until,
    ...rest
  } = stripKeys<SessionRecord & Record<string, unknown>>(item);
  return rest as SessionRecord;
}
