import { ApiError, issueImageUrl } from '@idv/api';
import { isImageKind } from '@idv/core';
import type { VerificationRecord } from '@idv/store';
import type { Context, Hono } from 'hono';
import { can } from '../auth/permissions.ts';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { ErrorPage } from '../pages/error-page.tsx';
import { signedInOf } from '../pages/parts.tsx';
import { type PhotoAccess, VerificationDetailPage } from '../pages/verification-detail.tsx';
import { VerificationsPage } from '../pages/verifications.tsx';
import { parseVerificationQuery } from '../services/verification-filters.ts';

/** How many verifications one page of the list shows. */
export const VERIFICATIONS_PAGE = 25;

/**
 * Verifications: the list and the detail for every role; the photos (live mode only) for the
 * roles that may see them, each through a fresh 5-minute URL whose issue and view are audited.
 */
export function registerVerificationRoutes(app: Hono<ConsoleEnv>): void {
  const see = [requireUser, requirePermission('verifications.view')] as const;

  app.get('/verifications', ...see, async (c) => {
    const { store } = c.get('deps');
    const user = c.get('user');
    const query = c.req.query();
    const org = await store.organisations.get(user.org_id);
    const parsed = parseVerificationQuery(query, org?.live_enabled ? 'live' : 'test');
    const result = parsed
      ? await store.verifications.list(
          user.org_id,
          parsed.mode,
          VERIFICATIONS_PAGE,
          parsed.cursor,
          parsed.filter,
        )
      : null;
    const page = result?.ok ? result.page : { data: [], next_cursor: null };
    return c.html(
      <VerificationsPage
        lang={c.get('lang')}
        signedIn={signedInOf(c)}
        query={query}
        mode={parsed?.mode ?? 'test'}
        items={page.data}
        next={page.next_cursor}
        flash={result?.ok ? undefined : { text: OPS_MESSAGES[c.get('lang')].badFilter, error: true }}
      />,
      result?.ok ? 200 : 400,
    );
  });

  app.get('/verifications/:id', ...see, async (c) => {
    const { store } = c.get('deps');
    const user = c.get('user');
    const record = await ownVerification(c);
    if (!record) return notFound(c);
    const [entry] = await store.audit.findForResource(
      user.org_id,
      record.verification.id,
      'verification.reviewed',
      record.verification.created_at,
    );
    const author = entry ? await authorOf(c, entry.actor) : '';
    return c.html(
      <VerificationDetailPage
        lang={c.get('lang')}
        signedIn={signedInOf(c)}
        record={record}
        decision={entry ? { entry, author } : null}
        photos={photoAccess(record, can(user.role, 'reviews.decide'))}
      />,
    );
  });

  // Spec: "See photos and decide a review" is one row of the roles table.
  app.get('/verifications/:id/images/:kind', requireUser, requirePermission('reviews.decide'), async (c) => {
    const kind = c.req.param('kind');
    const record = await ownVerification(c);
    if (!record || !isImageKind(kind) || record.mode !== 'live') return notFound(c);
    try {
      const signed = await issueImageUrl(c.get('deps'), record, kind, c.get('user').id);
      // The URL's token is the credential; the view is recorded when the browser fetches it.
      return c.redirect(signed.url, 303);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'image_gone') {
        return c.html(
          <ErrorPage lang={c.get('lang')} message={OPS_MESSAGES[c.get('lang')].imagesPurged} />,
          410,
        );
      }
      throw error;
    }
  });
}

/** A verification of the signed-in user's organisation (another's is simply not found). */
async function ownVerification(c: Context<ConsoleEnv>): Promise<VerificationRecord | null> {
  const id = c.req.param('id') ?? '';
  if (!/^vrf_[a-z0-9]{6,}$/.test(id)) return null;
  const record = await c.get('deps').store.verifications.getById(id);
  return record && record.org_id === c.get('user').org_id ? record : null;
}

function photoAccess(record: VerificationRecord, mayView: boolean): PhotoAccess {
  if (!mayView) return 'role';
  if (record.mode !== 'live') return 'test';
  if (record.images_purged_at) return 'purged';
  return Object.keys(record.images).length > 0 ? 'shown' : 'none';
}

/** The decision's author as a person (their email), or the raw actor once they left the team. */
async function authorOf(c: Context<ConsoleEnv>, actor: string): Promise<string> {
  const member = await c.get('deps').store.users.getInOrganisation(c.get('user').org_id, actor);
  return member?.email ?? actor;
}

function notFound(c: Context<ConsoleEnv>) {
  return c.html(<ErrorPage lang={c.get('lang')} message={MESSAGES[c.get('lang')].notFound} />, 404);
}
