import type { ApiKeyRecord, Mode } from '@idv/store';
import { type AppDeps, nowOf } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';

export interface KeyCaller {
  orgId: string;
  /** The console user acting (recorded in the audit journal). */
  actor: string;
}

/**
 * Creates a secret key for the organisation's default application. A live key only once live
 * mode is active (403 `live_not_enabled`). The secret is returned once and never kept.
 */
export async function createApiKey(
  deps: AppDeps,
  caller: KeyCaller,
  mode: Mode,
): Promise<{ secret: string; record: ApiKeyRecord }> {
  const { store } = deps;
  const org = await store.organisations.get(caller.orgId);
  if (!org) throw new ApiError('not_found', 'no such organisation');
  if (mode === 'live' && !org.live_enabled) {
    throw new ApiError('live_not_enabled', 'live mode is not active for this organisation yet');
  }
  const [app] = await store.organisations.listApplications(caller.orgId);
  if (!app) throw new ApiError('conflict', 'the organisation has no application');
  const now = nowOf(deps);
  const created = await store.apiKeys.create({ orgId: caller.orgId, appId: app.id, mode }, now);
  await store.audit.record(
    {
      org_id: caller.orgId,
      action: 'api_key.created',
      actor: caller.actor,
      resource_id: created.record.id,
      details: { mode, prefix: created.record.display_prefix, app_id: app.id },
    },
    now,
  );
  return created;
}

/** Revokes a key of the organisation at once (the next call with it gets 401). */
export async function revokeApiKey(deps: AppDeps, caller: KeyCaller, keyId: string): Promise<void> {
  const now = nowOf(deps);
  const found = await deps.store.apiKeys.revoke(caller.orgId, keyId, now);
  if (!found) throw new ApiError('not_found', 'no key with this id');
  await deps.store.audit.record(
    { org_id: caller.orgId, action: 'api_key.revoked', actor: caller.actor, resource_id: keyId, details: {} },
    now,
  );
}
