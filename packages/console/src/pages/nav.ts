import type { Permission } from '../auth/permissions.ts';
import { type Lang, MESSAGES, type Messages } from '../i18n.ts';
import { OPS_MESSAGES, type OperationsMessages } from '../operations-i18n.ts';

/** One link of the signed-in header: shown only to the roles that hold its permission. */
export interface NavEntry {
  href: string;
  /** A shared string (i18n.ts) or, with `ops`, one of the operations pages' strings. */
  label: keyof Messages | { ops: keyof OperationsMessages };
  permission: Permission;
}

/** The entry's text in the page's language. */
export function navLabel(entry: NavEntry, lang: Lang): string {
  return typeof entry.label === 'string' ? MESSAGES[lang][entry.label] : OPS_MESSAGES[lang][entry.label.ops];
}

/**
 * The console's navigation, in display order; each page adds its one line here. The server
 * refuses every forbidden action by itself (403): hiding a link is only for comfort.
 */
export const NAV: readonly NavEntry[] = [
  { href: '/console/reviews', label: 'reviewQueue', permission: 'verifications.view' },
  { href: '/console/verifications', label: { ops: 'verifications' }, permission: 'verifications.view' },
  { href: '/console/qr', label: 'qrSessions', permission: 'sessions.create' },
  { href: '/console/keys', label: 'apiKeys', permission: 'keys.manage' },
  { href: '/console/webhooks', label: { ops: 'webhooks' }, permission: 'keys.manage' },
  { href: '/console/logs', label: { ops: 'logs' }, permission: 'logs.view' },
  { href: '/console/audit', label: { ops: 'audit' }, permission: 'audit.view' },
  { href: '/console/team', label: { ops: 'team' }, permission: 'team.manage' },
  { href: '/console/settings', label: { ops: 'settings' }, permission: 'team.manage' },
  { href: '/console/usage', label: { ops: 'usage' }, permission: 'team.manage' },
];

/** The platform operator's own navigation (a separate account kind, not a role). */
export const OPERATOR_NAV: readonly { href: string; label: keyof Messages }[] = [
  { href: '/console/operator', label: 'organisations' },
];
