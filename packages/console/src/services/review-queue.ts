import type { Store, VerificationRecord } from '@idv/store';

/** How many waiting verifications one page of the queue shows. */
export const QUEUE_PAGE = 50;

/**
 * The review queue of an organisation: verdict `review`, no decision, oldest first, live and
 * test together (a reviewer decides both; the mode is shown on each entry).
 */
export async function reviewQueue(store: Store, orgId: string): Promise<VerificationRecord[]> {
  const pages = await Promise.all(
    (['live', 'test'] as const).map((mode) =>
      store.verifications.listAwaitingReview(orgId, mode, QUEUE_PAGE),
    ),
  );
  return pages
    .flatMap((result) => (result.ok ? result.page.data : []))
    .sort((a, b) => a.verification.created_at.localeCompare(b.verification.created_at))
    .slice(0, QUEUE_PAGE);
}
