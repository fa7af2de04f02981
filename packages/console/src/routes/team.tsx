import { nowOf } from '@idv/api';
import type { Context, Hono } from 'hono';
import { foreignOrigin } from '../auth/csrf.ts';
import { requirePermission, requireUser } from '../auth/require-user.tsx';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { InvitationPage } from '../pages/invitation.tsx';
import { type Flash, signedInOf } from '../pages/parts.tsx';
import { TeamPage } from '../pages/team.tsx';
import {
  changeMemberRole,
  inviteMember,
  isRole,
  MIN_PASSWORD_LENGTH,
  removeMember,
  type TeamRefusal,
} from '../services/team.ts';

/**
 * The team (owner, admin): invite, change a role, remove; never the last owner. The invitation
 * link itself needs no session: the token in it is the credential, usable once for 7 days.
 */
export function registerTeamRoutes(app: Hono<ConsoleEnv>): void {
  const guard = [requireUser, requirePermission('team.manage')] as const;

  app.get('/team', ...guard, (c) =>
    teamPage(
      c,
      c.req.query('changed') === '1' ? { flash: { text: OPS_MESSAGES[c.get('lang')].teamChanged } } : {},
    ),
  );

  app.post('/team', ...guard, async (c) => {
    const body = await c.req.parseBody();
    if (typeof body.email !== 'string' || !isRole(body.role)) return refusal(c, 'invalid');
    const invited = await inviteMember(c.get('deps'), c.get('user'), { email: body.email, role: body.role });
    if (!invited.ok) return refusal(c, invited.reason);
    // Rendered, not redirected: the link is a credential, shown once.
    return teamPage(c, { inviteLink: invited.value.link }, 201);
  });

  app.post('/team/:id/role', ...guard, async (c) => {
    const role = (await c.req.parseBody()).role;
    if (!isRole(role)) return refusal(c, 'invalid');
    const changed = await changeMemberRole(c.get('deps'), c.get('user'), c.req.param('id'), role);
    return changed.ok ? c.redirect('/console/team?changed=1', 303) : refusal(c, changed.reason);
  });

  app.post('/team/:id/remove', ...guard, async (c) => {
    const removed = await removeMember(c.get('deps'), c.get('user'), c.req.param('id'));
    return removed.ok ? c.redirect('/console/team?changed=1', 303) : refusal(c, removed.reason);
  });

  app.get('/invitation/:token', async (c) => {
    const user = await c.get('deps').store.users.findInvitation(c.req.param('token'), nowOf(c.get('deps')));
    return invitationPage(c, user?.email ?? null, user ? undefined : invalidInvitation(c), user ? 200 : 404);
  });

  app.post('/invitation/:token', async (c) => {
    const deps = c.get('deps');
    const token = c.req.param('token');
    if (foreignOrigin(c))
      return invitationPage(c, null, { text: MESSAGES[c.get('lang')].badForm, error: true }, 403);
    const password = (await c.req.parseBody()).password;
    const user = await deps.store.users.findInvitation(token, nowOf(deps));
    if (!user) return invitationPage(c, null, invalidInvitation(c), 404);
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH || password.length > 1024) {
      const text = OPS_MESSAGES[c.get('lang')].passwordTooShort;
      return invitationPage(c, user.email, { text, error: true }, 400);
    }
    const accepted = await deps.store.users.acceptInvitation(token, password, nowOf(deps));
    if (!accepted) return invitationPage(c, null, invalidInvitation(c), 404);
    return invitationPage(c, null, { text: OPS_MESSAGES[c.get('lang')].invitationDone }, 200);
  });
}

function invalidInvitation(c: Context<ConsoleEnv>): Flash {
  return { text: OPS_MESSAGES[c.get('lang')].invitationInvalid, error: true };
}

function invitationPage(
  c: Context<ConsoleEnv>,
  email: string | null,
  flash: Flash | undefined,
  status: 200 | 400 | 403 | 404,
) {
  // The token is a credential: the page never leaks it to another site.
  c.header('referrer-policy', 'no-referrer');
  return c.html(
    <InvitationPage lang={c.get('lang')} email={email} action={c.req.path} flash={flash} />,
    status,
  );
}

const REFUSAL_STATUS: Record<TeamRefusal, 400 | 403 | 404 | 409> = {
  invalid: 400,
  exists: 409,
  not_found: 404,
  owners_only: 403,
  last_owner: 409,
};

function refusal(c: Context<ConsoleEnv>, reason: TeamRefusal) {
  const t = MESSAGES[c.get('lang')];
  const o = OPS_MESSAGES[c.get('lang')];
  const text = {
    invalid: t.badForm,
    exists: o.emailTaken,
    not_found: t.notFound,
    owners_only: o.ownersOnly,
    last_owner: o.lastOwner,
  }[reason];
  return teamPage(c, { flash: { text, error: true } }, REFUSAL_STATUS[reason]);
}

async function teamPage(
  c: Context<ConsoleEnv>,
  extra: { inviteLink?: string; flash?: Flash },
  status: 200 | 201 | 400 | 403 | 404 | 409 = 200,
) {
  const me = c.get('user');
  const members = await c.get('deps').store.users.listForOrganisation(me.org_id);
  return c.html(
    <TeamPage lang={c.get('lang')} signedIn={signedInOf(c)} me={me} members={members} {...extra} />,
    status,
  );
}
