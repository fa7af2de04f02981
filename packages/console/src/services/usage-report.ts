import {
  billingMonth,
  FREE_LIVE_VERIFICATIONS_PER_MONTH,
  type MonthlyUsage,
  type Store,
  type VerificationRecord,
} from '@idv/store';
import { toCsv } from './csv.ts';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** `YYYY-MM` as asked, the current UTC month when absent; null when malformed. */
export function parseMonth(value: string | undefined, now: Date): string | null {
  if (!value) return billingMonth(now);
  return MONTH.test(value) ? value : null;
}

/** The month's bounds as ISO instants: [first day 00:00, first day of the next month 00:00). */
function monthRange(month: string): { from: string; to: string } {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return {
    from: new Date(Date.UTC(year, mon - 1, 1)).toISOString(),
    to: new Date(Date.UTC(year, mon, 1)).toISOString(),
  };
}

export interface UsageSummary extends MonthlyUsage {
  free_left: number;
}

/** The month's counter (written with each live verification), with what is left of the free 50. */
export async function usageSummary(store: Store, orgId: string, month: string): Promise<UsageSummary> {
  const usage = await store.usage.get(orgId, month);
  return { ...usage, free_left: Math.max(0, FREE_LIVE_VERIFICATIONS_PER_MONTH - usage.live_verifications) };
}

/** Every live verification of the month, oldest first (the order in which the free 50 are used). */
async function liveVerificationsOf(
  store: Store,
  orgId: string,
  month: string,
): Promise<VerificationRecord[]> {
  const all: VerificationRecord[] = [];
  let cursor: string | undefined;
  do {
    const result = await store.verifications.list(orgId, 'live', 100, cursor, monthRange(month));
    if (!result.ok) break;
    all.push(...result.page.data);
    cursor = result.page.next_cursor ?? undefined;
  } while (cursor);
  return all.reverse();
}

export const USAGE_CSV_HEADER = [
  'month',
  'verification_id',
  'created_at',
  'reference',
  'document_type',
  'verdict',
  'final_verdict',
  'billing',
  'estimated_cost_usd',
] as const;

/**
 * The finance export: one line per live verification of the month, each marked `free` (the
 * first 50 of the month) or `billable`, with its estimated cost.
 */
export async function usageCsv(store: Store, orgId: string, month: string): Promise<string> {
  const records = await liveVerificationsOf(store, orgId, month);
  const rows = records.map((record, index) => {
    const v = record.verification;
    return [
      month,
      v.id,
      v.created_at,
      record.reference ?? null,
      v.document_type,
      v.verdict,
      v.final_verdict,
      index < FREE_LIVE_VERIFICATIONS_PER_MONTH ? 'free' : 'billable',
      record.cost?.total_usd ?? 0,
    ];
  });
  return toCsv([USAGE_CSV_HEADER, ...rows]);
}
