import type { Mode } from '@idv/store';
import type { Hono } from 'hono';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { AuditJournalPage } from '../pages/audit-journal.tsx';
import { signedInOf } from '../pages/parts.tsx';
import { RequestLogsPage } from '../pages/request-logs.tsx';

/** Rows per page of the request logs and of the audit journal. */
export const JOURNAL_PAGE = 50;

/**
 * The request logs (metadata of API calls; owner, admin, developer) and the audit journal
 * (owner, admin), both newest first and paged with the store's cursor.
 */
export function registerJournalRoutes(app: Hono<ConsoleEnv>): void {
  app.get('/logs', requireUser, requirePermission('logs.view'), async (c) => {
    const { store } = c.get('deps');
    const orgId = c.get('user').org_id;
    const query = c.req.query();
    const org = await store.organisations.get(orgId);
    const mode = (query.mode || (org?.live_enabled ? 'live' : 'test')) as Mode;
    const status = query.status ? Number(query.status) : undefined;
    const valid =
      (mode === 'live' || mode === 'test') &&
      (status === undefined || (Number.isInteger(status) && status >= 100 && status <= 599));
    const result = valid
      ? await store.requestLogs.list({
          orgId,
          mode,
          limit: JOURNAL_PAGE,
          cursor: query.cursor || undefined,
          status,
          route: query.route?.trim() || undefined,
        })
      : null;
    const page = result?.ok ? result.page : { data: [], next_cursor: null };
    return c.html(
      <RequestLogsPage
        lang={c.get('lang')}
        signedIn={signedInOf(c)}
        query={query}
        mode={mode === 'live' ? 'live' : 'test'}
        entries={page.data}
        next={page.next_cursor}
        flash={result?.ok ? undefined : { text: OPS_MESSAGES[c.get('lang')].badFilter, error: true }}
      />,
      result?.ok ? 200 : 400,
    );
  });

  app.get('/audit', requireUser, requirePermission('audit.view'), async (c) => {
    const { store } = c.get('deps');
    const orgId = c.get('user').org_id;
    const query = c.req.query();
    const [result, team] = await Promise.all([
      store.audit.list(orgId, JOURNAL_PAGE, query.cursor || undefined),
      store.users.listForOrganisation(orgId),
    ]);
    const page = result.ok ? result.page : { data: [], next_cursor: null };
    return c.html(
      <AuditJournalPage
        lang={c.get('lang')}
        signedIn={signedInOf(c)}
        query={query}
        entries={page.data}
        people={new Map(team.map((u) => [u.id, u.email]))}
        next={page.next_cursor}
        flash={result.ok ? undefined : { text: OPS_MESSAGES[c.get('lang')].badFilter, error: true }}
      />,
      result.ok ? 200 : 400,
    );
  });
}
