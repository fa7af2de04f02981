import { ApiError, decideReview } from '@idv/api';
import type { Context, Hono } from 'hono';
import { can } from '../auth/permissions.ts';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { ReviewQueuePage } from '../pages/review-queue.tsx';
import { reviewQueue } from '../services/review-queue.ts';

/** The review queue (every role sees it) and its decision form (owner, admin, reviewer). */
export function registerReviewRoutes(app: Hono<ConsoleEnv>): void {
  app.get('/reviews', requireUser, requirePermission('verifications.view'), (c) => queuePage(c));

  app.post('/reviews/:id/decision', requireUser, requirePermission('reviews.decide'), async (c) => {
    const t = MESSAGES[c.get('lang')];
    const body = await c.req.parseBody();
    const decision = body.decision;
    if (decision !== 'approve' && decision !== 'reject') {
      return queuePage(c, { text: t.badForm, error: true }, 400);
    }
    try {
      await decideReview(c.get('deps'), {
        orgId: c.get('user').org_id,
        verificationId: c.req.param('id'),
        decision,
        note: typeof body.note === 'string' ? body.note : undefined,
        actor: c.get('user').id,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const text =
        error.code === 'conflict'
          ? t.alreadyDecided
          : error.code === 'not_found'
            ? t.notFound
            : t.noteTooLong;
      return queuePage(
        c,
        { text, error: true },
        error.status === 409 ? 409 : error.status === 404 ? 404 : 400,
      );
    }
    // Post/redirect/get: a reload does not post the decision again.
    return c.redirect('/console/reviews?decided=1', 303);
  });
}

async function queuePage(
  c: Context<ConsoleEnv>,
  flash?: { text: string; error?: boolean },
  status: 200 | 400 | 404 | 409 = 200,
) {
  const user = c.get('user');
  const items = await reviewQueue(c.get('deps').store, user.org_id);
  const decided = c.req.query('decided') === '1' ? { text: MESSAGES[c.get('lang')].decided } : undefined;
  return c.html(
    <ReviewQueuePage
      lang={c.get('lang')}
      email={user.email}
      role={user.role}
      csrf={c.get('csrf')}
      items={items}
      canDecide={can(user.role, 'reviews.decide')}
      flash={flash ?? decided}
    />,
    status,
  );
}
