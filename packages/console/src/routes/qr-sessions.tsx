import { nowOf } from '@idv/api';
import { hasPrefix } from '@idv/core';
import type { Context, Hono } from 'hono';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { QR_STATE_LABEL, QrSessionPage, verificationHref } from '../pages/qr-session.tsx';
import { createQrSession, qrState } from '../services/qr-sessions.ts';

/**
 * QR sessions: a console user opens a capture session shown as a QR code of its link; the page
 * follows its state (awaiting scan → opened on the phone → verification received, or expired)
 * through a small JSON endpoint it polls. Every role may create one (spec's table).
 */
export function registerQrSessionRoutes(app: Hono<ConsoleEnv>): void {
  app.get('/qr', requireUser, requirePermission('sessions.create'), (c) => qrPage(c));

  app.post('/qr', requireUser, requirePermission('sessions.create'), async (c) => {
    const t = MESSAGES[c.get('lang')];
    const { store } = c.get('deps');
    const user = c.get('user');
    const mode = (await c.req.parseBody()).mode ?? 'test';
    if (mode !== 'test' && mode !== 'live')
      return qrPage(c, { flash: { text: t.badForm, error: true } }, 400);
    const org = await store.organisations.get(user.org_id);
    if (!org) return qrPage(c, { flash: { text: t.notFound, error: true } }, 404);
    if (org.suspended) return qrPage(c, { flash: { text: t.qrSuspended, error: true } }, 403);
    if (mode === 'live' && !org.live_enabled) {
      return qrPage(c, { flash: { text: t.liveNotEnabled, error: true } }, 403);
    }
    const created = await createQrSession(c.get('deps'), user, mode);
    // Rendered, not redirected: the link holds the client token, which is never stored.
    return qrPage(
      c,
      {
        created: {
          id: created.record.id,
          url: created.url,
          svg: created.svg,
          expiresAt: created.record.token_expires_at,
        },
      },
      201,
    );
  });

  app.get('/qr/:id/state', requireUser, requirePermission('verifications.view'), async (c) => {
    const id = c.req.param('id');
    const user = c.get('user');
    const record = hasPrefix(id, 'ses') ? await c.get('deps').store.sessions.getById(id) : null;
    // Another organisation's session is not found, like one that does not exist.
    if (!record || record.org_id !== user.org_id) {
      return c.json({ error: { code: 'not_found', message: 'no such session' } }, 404);
    }
    const state = qrState(record, nowOf(c.get('deps')));
    return c.json({
      state,
      label: MESSAGES[c.get('lang')][QR_STATE_LABEL[state]],
      verification_id: record.verification_id,
      result_url: record.verification_id ? verificationHref(record.verification_id) : null,
      expires_at: record.token_expires_at,
    });
  });
}

async function qrPage(
  c: Context<ConsoleEnv>,
  extra: {
    created?: { id: string; url: string; svg: string; expiresAt: string };
    flash?: { text: string; error?: boolean };
  } = {},
  status: 200 | 201 | 400 | 403 | 404 = 200,
) {
  const user = c.get('user');
  const org = await c.get('deps').store.organisations.get(user.org_id);
  return c.html(
    <QrSessionPage
      lang={c.get('lang')}
      email={user.email}
      role={user.role}
      csrf={c.get('csrf')}
      liveEnabled={Boolean(org?.live_enabled)}
      {...extra}
    />,
    status,
  );
}
