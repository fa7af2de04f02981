import { type AppDeps, nowOf } from '@idv/api';

/**
 * Bounds of the image retention period an organisation may choose (the spec names none;
 * docs/decisions.md): at least a day so a reviewer can look, at most a year.
 */
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 365;

/** A whole number of days within the bounds, or null. */
export function parseRetentionDays(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,4}$/.test(value.trim())) return null;
  const days = Number(value.trim());
  return days >= MIN_RETENTION_DAYS && days <= MAX_RETENTION_DAYS ? days : null;
}

/**
 * Changes the retention period and writes the audit entry (old and new value, author). It
 * applies to verifications made from now on: each one's purge date is set when it is saved.
 */
export async function changeRetention(
  deps: AppDeps,
  input: { orgId: string; actor: string; days: number },
): Promise<boolean> {
  const before = await deps.store.organisations.get(input.orgId);
  if (!before) return false;
  if (before.retention_days === input.days) return true;
  await deps.store.organisations.update(input.orgId, { retention_days: input.days });
  await deps.store.audit.record(
    {
      org_id: input.orgId,
      action: 'organisation.retention_changed',
      actor: input.actor,
      resource_id: input.orgId,
      details: { old_retention_days: before.retention_days, new_retention_days: input.days },
    },
    nowOf(deps),
  );
  return true;
}
