import { type AppDeps, nowOf, openSession } from '@idv/api';
import { type ConsoleUser, type Mode, type SessionRecord, sessionStatus } from '@idv/store';
import QRCode from 'qrcode';

/** Spec: a session created from the console is valid 15 minutes and usable once. */
export const QR_SESSION_SECONDS = 15 * 60;

/** The console's states of a QR session, in the order they happen. */
export type QrState = 'awaiting' | 'opened' | 'received' | 'expired';

export function qrState(record: SessionRecord, now: Date): QrState {
  const status = sessionStatus(record, now);
  if (status === 'completed') return 'received';
  if (status === 'expired') return 'expired';
  return record.opened_at ? 'opened' : 'awaiting';
}

/**
 * Opens a QR session for a console user through the one session service (same token, same
 * single use as `POST /v1/sessions`), in the organisation's first application. The token is
 * only in the returned link; the console never keeps it.
 */
export async function createQrSession(
  deps: AppDeps,
  user: ConsoleUser,
  mode: Mode,
): Promise<{ record: SessionRecord; url: string; svg: string }> {
  const [app] = await deps.store.organisations.listApplications(user.org_id);
  if (!app) throw new Error(`organisation ${user.org_id} has no application`);
  const { record, url } = await openSession(deps, {
    orgId: user.org_id,
    appId: app.id,
    mode,
    keyId: user.id,
    createdBy: user.id,
    ttlSeconds: QR_SESSION_SECONDS,
  });
  await deps.store.audit.record(
    {
      org_id: user.org_id,
      action: 'session.created_from_console',
      actor: user.id,
      resource_id: record.id,
      details: { mode },
    },
    nowOf(deps),
  );
  return { record, url, svg: await qrSvg(url) };
}

/** The link as an SVG QR code (error correction M: readable on a screen photographed at an angle). */
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
