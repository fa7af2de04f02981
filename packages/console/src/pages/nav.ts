import type { Permission } from '../auth/permissions.ts';
import type { Messages } from '../i18n.ts';

/** One link of the signed-in header: shown only to the roles that hold its permission. */
export interface NavEntry {
  href: string;
  label: keyof Messages;
  permission: Permission;
}

/**
 * The console's navigation, in display order; each page adds its one line here. The server
 * refuses every forbidden action by itself (403): hiding a link is only for comfort.
 */
export const NAV: readonly NavEntry[] = [
  { href: '/console/reviews', label: 'reviewQueue', permission: 'verifications.view' },
  { href: '/console/qr', label: 'qrSessions', permission: 'sessions.create' },
  { href: '/console/keys', label: 'apiKeys', permission: 'keys.manage' },
];

/** The platform operator's own navigation (a separate account kind, not a role). */
export const OPERATOR_NAV: readonly { href: string; label: keyof Messages }[] = [
  { href: '/console/operator', label: 'organisations' },
];
