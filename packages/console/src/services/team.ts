import { type AppDeps, nowOf } from '@idv/api';
import type { ConsoleUser, Role } from '@idv/store';

export const ROLES: readonly Role[] = ['owner', 'admin', 'reviewer', 'developer'];
/** The shortest password an invited person may choose. */
export const MIN_PASSWORD_LENGTH = 12;

export type TeamRefusal = 'not_found' | 'last_owner' | 'owners_only' | 'exists' | 'invalid';
export type TeamOutcome<T = ConsoleUser> = { ok: true; value: T } | { ok: false; reason: TeamRefusal };

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Only an owner gives, changes or removes the owner role (docs/decisions.md): an admin
 * manages the rest of the team but cannot take the organisation from its owners.
 */
function touchesOwner(actor: ConsoleUser, ...roles: Role[]): boolean {
  return actor.role !== 'owner' && roles.includes('owner');
}

/** Invites a person: a user without password and a one-time link, shown once (no e-mail here). */
export async function inviteMember(
  deps: AppDeps,
  actor: ConsoleUser,
  input: { email: string; role: Role },
): Promise<TeamOutcome<{ user: ConsoleUser; link: string }>> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) return { ok: false, reason: 'invalid' };
  if (touchesOwner(actor, input.role)) return { ok: false, reason: 'owners_only' };
  const now = nowOf(deps);
  const invited = await deps.store.users.invite({ orgId: actor.org_id, email, role: input.role }, now);
  if (!invited.ok) return { ok: false, reason: 'exists' };
  await audit(deps, actor, 'team.invited', invited.user.id, { email, role: input.role });
  return {
    ok: true,
    value: { user: invited.user, link: `${deps.baseUrl}/console/invitation/${invited.token}` },
  };
}

export async function changeMemberRole(
  deps: AppDeps,
  actor: ConsoleUser,
  memberId: string,
  role: Role,
): Promise<TeamOutcome> {
  const member = await deps.store.users.getInOrganisation(actor.org_id, memberId);
  if (!member) return { ok: false, reason: 'not_found' };
  if (touchesOwner(actor, member.role, role)) return { ok: false, reason: 'owners_only' };
  const result = await deps.store.users.changeRole(actor.org_id, memberId, role);
  if (!result.ok) return result;
  if (member.role !== role) {
    await audit(deps, actor, 'team.role_changed', memberId, {
      email: member.email,
      old_role: member.role,
      new_role: role,
    });
  }
  return { ok: true, value: result.user };
}

export async function removeMember(
  deps: AppDeps,
  actor: ConsoleUser,
  memberId: string,
): Promise<TeamOutcome> {
  const member = await deps.store.users.getInOrganisation(actor.org_id, memberId);
  if (!member) return { ok: false, reason: 'not_found' };
  if (touchesOwner(actor, member.role)) return { ok: false, reason: 'owners_only' };
  const result = await deps.store.users.remove(actor.org_id, memberId);
  if (!result.ok) return result;
  await audit(deps, actor, 'team.removed', memberId, { email: member.email, role: member.role });
  return { ok: true, value: result.user };
}

async function audit(
  deps: AppDeps,
  actor: ConsoleUser,
  action: string,
  resourceId: string,
  details: Record<string, unknown>,
) {
  await deps.store.audit.record(
    { org_id: actor.org_id, action, actor: actor.id, resource_id: resourceId, details },
    nowOf(deps),
  );
}
