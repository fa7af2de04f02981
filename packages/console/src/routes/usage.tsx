import { nowOf } from '@idv/api';
import type { Hono } from 'hono';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { signedInOf } from '../pages/parts.tsx';
import { UsagePage } from '../pages/usage.tsx';
import { parseMonth, usageCsv, usageSummary } from '../services/usage-report.ts';

/**
 * Usage of the organisation (billing is part of "manage the organisation": owner and admin,
 * docs/decisions.md): the month's live verifications, free left, billable, estimated cost, and
 * the CSV for finance.
 */
export function registerUsageRoutes(app: Hono<ConsoleEnv>): void {
  const guard = [requireUser, requirePermission('team.manage')] as const;

  app.get('/usage', ...guard, async (c) => {
    const now = nowOf(c.get('deps'));
    const asked = parseMonth(c.req.query('month'), now);
    const month = asked ?? parseMonth(undefined, now) ?? '';
    const usage = await usageSummary(c.get('deps').store, c.get('user').org_id, month);
    return c.html(
      <UsagePage
        lang={c.get('lang')}
        signedIn={signedInOf(c)}
        month={month}
        usage={usage}
        flash={asked ? undefined : { text: OPS_MESSAGES[c.get('lang')].badFilter, error: true }}
      />,
      asked ? 200 : 400,
    );
  });

  app.get('/usage.csv', ...guard, async (c) => {
    const month = parseMonth(c.req.query('month'), nowOf(c.get('deps')));
    if (!month) return c.text('month: expected YYYY-MM\n', 400);
    const csv = await usageCsv(c.get('deps').store, c.get('user').org_id, month);
    return c.body(csv, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="usage-${month}.csv"`,
    });
  });
}
