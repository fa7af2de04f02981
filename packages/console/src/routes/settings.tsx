import type { Context, Hono } from 'hono';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { ErrorPage } from '../pages/error-page.tsx';
import { type Flash, signedInOf } from '../pages/parts.tsx';
import { SettingsPage } from '../pages/settings.tsx';
import { changeRetention, parseRetentionDays } from '../services/retention.ts';

/** Organisation settings; the roles table's row "Manage team, organisation, retention". */
export function registerSettingsRoutes(app: Hono<ConsoleEnv>): void {
  const guard = [requireUser, requirePermission('team.manage')] as const;

  app.get('/settings', ...guard, (c) =>
    settingsPage(c, c.req.query('saved') === '1' ? { text: OPS_MESSAGES[c.get('lang')].saved } : undefined),
  );

  app.post('/settings', ...guard, async (c) => {
    const days = parseRetentionDays((await c.req.parseBody()).retention_days);
    if (days === null) {
      return settingsPage(c, { text: OPS_MESSAGES[c.get('lang')].retentionBounds, error: true }, 400);
    }
    await changeRetention(c.get('deps'), { orgId: c.get('user').org_id, actor: c.get('user').id, days });
    return c.redirect('/console/settings?saved=1', 303);
  });
}

async function settingsPage(c: Context<ConsoleEnv>, flash?: Flash, status: 200 | 400 = 200) {
  const org = await c.get('deps').store.organisations.get(c.get('user').org_id);
  if (!org) return c.html(<ErrorPage lang={c.get('lang')} message={MESSAGES[c.get('lang')].notFound} />, 404);
  return c.html(
    <SettingsPage lang={c.get('lang')} signedIn={signedInOf(c)} org={org} flash={flash} />,
    status,
  );
}
