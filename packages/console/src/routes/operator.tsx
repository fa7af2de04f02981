import { hasPrefix } from '@idv/core';
import type { Context, Hono } from 'hono';
import { requireOperator } from '../auth/require-operator.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { ErrorPage } from '../pages/error-page.tsx';
import { OrganisationListPage, OrganisationPage } from '../pages/operator.tsx';
import { applyOperatorAction, type OperatorAction } from '../services/operator-actions.ts';

const ORGS_PER_PAGE = 50;
/** How many of the organisation's journal entries are read to show the operator's own. */
const JOURNAL_READ = 100;

/** The platform operator's pages: every organisation, live activation, suspension. */
export function registerOperatorRoutes(app: Hono<ConsoleEnv>): void {
  app.get('/operator', requireOperator, async (c) => {
    const cursor = c.req.query('cursor') || undefined;
    const result = await c.get('deps').store.organisations.list(ORGS_PER_PAGE, cursor);
    if (!result.ok) return notFound(c, 400);
    return c.html(
      <OrganisationListPage {...frame(c)} orgs={result.page.data} nextCursor={result.page.next_cursor} />,
    );
  });

  // The "open by id" form of the list.
  app.get('/operator/orgs', requireOperator, (c) => {
    const id = (c.req.query('id') ?? '').trim();
    return isOrgId(id) ? c.redirect(`/console/operator/orgs/${id}`, 303) : notFound(c);
  });

  app.get('/operator/orgs/:id', requireOperator, (c) => orgPage(c));

  const actions: Record<string, OperatorAction> = {
    'activate-live': 'activate_live',
    suspend: 'suspend',
    unsuspend: 'unsuspend',
  };
  for (const [path, action] of Object.entries(actions)) {
    app.post(`/operator/orgs/:id/${path}`, requireOperator, async (c) => {
      const t = MESSAGES[c.get('lang')];
      const id = c.req.param('id');
      if (!isOrgId(id)) return notFound(c);
      const reason = (await c.req.parseBody()).reason;
      const outcome = await applyOperatorAction(
        c.get('deps'),
        c.get('operator'),
        id,
        action,
        typeof reason === 'string' ? reason : undefined,
      );
      if (outcome === 'not_found') return notFound(c);
      if (outcome === 'unchanged') return orgPage(c, { text: t.actionUnchanged, error: true }, 409);
      // Post/redirect/get: a reload does not repeat the action.
      return c.redirect(`/console/operator/orgs/${id}?done=1`, 303);
    });
  }
}

function frame(c: Context<ConsoleEnv>) {
  return { lang: c.get('lang'), email: c.get('operator').email, csrf: c.get('csrf') };
}

async function orgPage(
  c: Context<ConsoleEnv>,
  flash?: { text: string; error?: boolean },
  status: 200 | 409 = 200,
) {
  const { store } = c.get('deps');
  const id = c.req.param('id') ?? '';
  const org = isOrgId(id) ? await store.organisations.get(id) : null;
  if (!org) return notFound(c);
  const journal = await store.audit.list(org.id, JOURNAL_READ);
  const entries = journal.ok
    ? journal.page.data.filter((entry) => entry.details.by === 'platform_operator')
    : [];
  const done = c.req.query('done') === '1' ? { text: MESSAGES[c.get('lang')].actionDone } : undefined;
  return c.html(<OrganisationPage {...frame(c)} org={org} journal={entries} flash={flash ?? done} />, status);
}

/** A well-formed organisation id (anything else names nothing and never reaches the store). */
function isOrgId(id: string): boolean {
  return hasPrefix(id, 'org');
}

function notFound(c: Context<ConsoleEnv>, status: 400 | 404 = 404) {
  return c.html(<ErrorPage lang={c.get('lang')} message={MESSAGES[c.get('lang')].notFound} />, status);
}
