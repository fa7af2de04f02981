import { ApiError, createWebhookEndpoint, nowOf } from '@idv/api';
import type { Context, Hono } from 'hono';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { ErrorPage } from '../pages/error-page.tsx';
import { type Flash, signedInOf } from '../pages/parts.tsx';
import { WebhookDeliveriesPage } from '../pages/webhook-deliveries.tsx';
import { WebhooksPage } from '../pages/webhooks.tsx';

/** Webhook endpoints and their deliveries; the roles table's row "Manage API keys and webhooks". */
export function registerWebhookRoutes(app: Hono<ConsoleEnv>): void {
  const guard = [requireUser, requirePermission('keys.manage')] as const;

  app.get('/webhooks', ...guard, (c) =>
    webhooksPage(c, {
      flash:
        c.req.query('deleted') === '1' ? { text: OPS_MESSAGES[c.get('lang')].endpointDeleted } : undefined,
    }),
  );

  app.post('/webhooks', ...guard, async (c) => {
    const deps = c.get('deps');
    const user = c.get('user');
    const body = await c.req.parseBody();
    const url = typeof body.url === 'string' ? body.url.trim() : '';
    const description = typeof body.description === 'string' ? body.description.trim().slice(0, 500) : '';
    const applications = await deps.store.organisations.listApplications(user.org_id);
    // The application chosen in the console (spec), else the organisation's first one.
    const chosen = typeof body.app_id === 'string' && body.app_id ? body.app_id : applications[0]?.id;
    const appId = applications.find((a) => a.id === chosen)?.id;
    if (!appId) return webhooksPage(c, { form: { url, description }, flash: badForm(c) }, 400);
    try {
      const endpoint = await createWebhookEndpoint(deps, { orgId: user.org_id, appId, url, description });
      await deps.store.audit.record(
        {
          org_id: user.org_id,
          action: 'webhook_endpoint.created',
          actor: user.id,
          resource_id: endpoint.id,
          details: { url: endpoint.url, app_id: appId },
        },
        nowOf(deps),
      );
      // Rendered, not redirected: the secret must never travel in a URL or be shown twice.
      return webhooksPage(c, { secret: endpoint.secret }, 201);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The address check's reason (HTTPS, private address, limit) is the useful message.
      const status = error.code === 'conflict' ? 409 : 400;
      return webhooksPage(
        c,
        { form: { url, description }, flash: { text: error.message, error: true } },
        status,
      );
    }
  });

  app.post('/webhooks/:id/delete', ...guard, async (c) => {
    const deps = c.get('deps');
    const user = c.get('user');
    const id = c.req.param('id');
    if (!(await deps.store.webhookEndpoints.delete(user.org_id, id))) return notFound(c);
    await deps.store.audit.record(
      {
        org_id: user.org_id,
        action: 'webhook_endpoint.deleted',
        actor: user.id,
        resource_id: id,
        details: {},
      },
      nowOf(deps),
    );
    return c.redirect('/console/webhooks?deleted=1', 303);
  });

  app.get('/webhooks/:id', ...guard, async (c) => {
    const { store } = c.get('deps');
    const endpoint = await store.webhookEndpoints.get(c.get('user').org_id, c.req.param('id'));
    if (!endpoint) return notFound(c);
    const deliveries = await store.webhookDeliveries.listForEndpoint(endpoint.id);
    return c.html(
      <WebhookDeliveriesPage
        lang={c.get('lang')}
        signedIn={signedInOf(c)}
        endpoint={endpoint}
        deliveries={deliveries}
      />,
    );
  });
}

function badForm(c: Context<ConsoleEnv>): Flash {
  return { text: MESSAGES[c.get('lang')].badForm, error: true };
}

function notFound(c: Context<ConsoleEnv>) {
  return c.html(<ErrorPage lang={c.get('lang')} message={MESSAGES[c.get('lang')].notFound} />, 404);
}

async function webhooksPage(
  c: Context<ConsoleEnv>,
  extra: { secret?: string; form?: { url: string; description: string }; flash?: Flash },
  status: 200 | 201 | 400 | 409 = 200,
) {
  const { store } = c.get('deps');
  const orgId = c.get('user').org_id;
  const [endpoints, applications] = await Promise.all([
    store.webhookEndpoints.listForOrganisation(orgId),
    store.organisations.listApplications(orgId),
  ]);
  return c.html(
    <WebhooksPage
      lang={c.get('lang')}
      signedIn={signedInOf(c)}
      endpoints={endpoints}
      applications={applications}
      {...extra}
    />,
    status,
  );
}
