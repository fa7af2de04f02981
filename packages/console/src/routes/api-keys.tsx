import { ApiError, createApiKey, revokeApiKey } from '@idv/api';
import type { Context, Hono } from 'hono';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { ApiKeysPage } from '../pages/api-keys.tsx';

/** API keys: list, create (test or live), revoke; roles owner, admin and developer. */
export function registerApiKeyRoutes(app: Hono<ConsoleEnv>): void {
  const guard = [requireUser, requirePermission('keys.manage')] as const;

  app.get('/keys', ...guard, (c) =>
    keysPage(c, {
      flash: c.req.query('revoked') === '1' ? { text: MESSAGES[c.get('lang')].keyRevoked } : undefined,
    }),
  );

  app.post('/keys', ...guard, async (c) => {
    const t = MESSAGES[c.get('lang')];
    const mode = (await c.req.parseBody()).mode;
    if (mode !== 'test' && mode !== 'live')
      return keysPage(c, { flash: { text: t.badForm, error: true } }, 400);
    try {
      const created = await createApiKey(c.get('deps'), caller(c), mode);
      // Rendered, not redirected: the secret must never travel in a URL or be shown twice.
      return keysPage(c, { secret: created.secret }, 201);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'live_not_enabled') {
        return keysPage(c, { flash: { text: t.liveNotEnabled, error: true } }, 403);
      }
      throw error;
    }
  });

  app.post('/keys/:id/revoke', ...guard, async (c) => {
    try {
      await revokeApiKey(c.get('deps'), caller(c), c.req.param('id'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') {
        return keysPage(c, { flash: { text: MESSAGES[c.get('lang')].notFound, error: true } }, 404);
      }
      throw error;
    }
    return c.redirect('/console/keys?revoked=1', 303);
  });
}

function caller(c: Context<ConsoleEnv>) {
  return { orgId: c.get('user').org_id, actor: c.get('user').id };
}

async function keysPage(
  c: Context<ConsoleEnv>,
  extra: { secret?: string; flash?: { text: string; error?: boolean } },
  status: 200 | 201 | 400 | 403 | 404 = 200,
) {
  const user = c.get('user');
  const keys = await c.get('deps').store.apiKeys.listForOrganisation(user.org_id);
  return c.html(
    <ApiKeysPage
      lang={c.get('lang')}
      email={user.email}
      role={user.role}
      csrf={c.get('csrf')}
      keys={keys}
      {...extra}
    />,
    status,
  );
}
