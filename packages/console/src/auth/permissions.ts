import type { Role } from '@idv/store';

/** What a console user may do; one line per row of the spec's roles table. */
export type Permission =
  | 'verifications.view'
  | 'sessions.create'
  | 'reviews.decide'
  | 'keys.manage'
  | 'logs.view'
  | 'audit.view'
  | 'team.manage';

/**
 * The spec's roles table, the only place where roles meet actions: every console route names
 * its permission and the middleware refuses (403) anyone whose role is not listed here.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Permission, readonly Role[]>> = {
  // See verifications and sessions
  'verifications.view': ['owner', 'admin', 'reviewer', 'developer'],
  // Create a QR session
  'sessions.create': ['owner', 'admin', 'reviewer', 'developer'],
  // See photos and decide a review
  'reviews.decide': ['owner', 'admin', 'reviewer'],
  // Manage API keys and webhooks
  'keys.manage': ['owner', 'admin', 'developer'],
  // See API request logs
  'logs.view': ['owner', 'admin', 'developer'],
  // See the audit journal
  'audit.view': ['owner', 'admin'],
  // Manage team, organisation, retention
  'team.manage': ['owner', 'admin'],
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[permission].includes(role);
}
