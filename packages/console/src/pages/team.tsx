import type { ConsoleUser } from '@idv/store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import { formatDate, OPS_MESSAGES, roleLabel } from '../operations-i18n.ts';
import { ROLES } from '../services/team.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage, type signedInOf } from './parts.tsx';

export interface TeamProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  me: ConsoleUser;
  members: ConsoleUser[];
  /** The invitation link just made: shown this once only. */
  inviteLink?: string;
  flash?: Flash;
}

/** The team: invite (a one-time link), change a role, remove; owners' roles are for owners only. */
export function TeamPage(props: TeamProps) {
  const t = MESSAGES[props.lang];
  const o = OPS_MESSAGES[props.lang];
  const grantable = props.me.role === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner');
  return (
    <Layout lang={props.lang} title={o.team} signedIn={props.signedIn}>
      <h1>{o.team}</h1>
      <FlashMessage flash={props.flash} />
      {props.inviteLink ? (
        <div class="flash" role="status">
          <p style="margin:0 0 .5rem">{o.inviteLink}</p>
          <code data-testid="invite-link" style="word-break:break-all">
            {props.inviteLink}
          </code>
        </div>
      ) : null}
      <form class="card" method="post" action="/console/team">
        <input type="hidden" name={CSRF_FIELD} value={props.signedIn.csrf} />
        <label for="invite-email">{t.email}</label>
        <input
          id="invite-email"
          type="email"
          name="email"
          required
          maxlength={254}
          data-testid="invite-email"
        />
        <label for="invite-role">{o.role}</label>
        <select id="invite-role" name="role" data-testid="invite-role">
          {grantable.map((r) => (
            <option value={r} selected={r === 'reviewer'}>
              {roleLabel(props.lang, r)}
            </option>
          ))}
        </select>
        <div class="actions">
          <button class="primary" type="submit" data-testid="invite-submit">
            {o.invite}
          </button>
        </div>
      </form>
      {props.members.map((member) => {
        const editable = props.me.role === 'owner' || member.role !== 'owner';
        return (
          <div class="card" data-testid="member-row" data-id={member.id} data-role={member.role}>
            <dl>
              <dt>{t.email}</dt>
              <dd>
                {member.email}
                {member.id === props.me.id ? ` (${o.you})` : ''}
              </dd>
              <dt>{o.role}</dt>
              <dd>{roleLabel(props.lang, member.role)}</dd>
              <dt>{t.created}</dt>
              <dd>{formatDate(props.lang, member.created_at)}</dd>
              {member.invited ? (
                <>
                  <dt>{t.state}</dt>
                  <dd>{o.invited}</dd>
                </>
              ) : null}
            </dl>
            {editable ? (
              <div class="actions">
                <form
                  method="post"
                  action={`/console/team/${member.id}/role`}
                  class="actions"
                  style="margin:0"
                >
                  <input type="hidden" name={CSRF_FIELD} value={props.signedIn.csrf} />
                  <select name="role" aria-label={o.role}>
                    {grantable.map((r) => (
                      <option value={r} selected={r === member.role}>
                        {roleLabel(props.lang, r)}
                      </option>
                    ))}
                  </select>
                  <button class="primary" type="submit" data-testid="member-role">
                    {o.changeRole}
                  </button>
                </form>
                <form method="post" action={`/console/team/${member.id}/remove`} style="margin:0">
                  <input type="hidden" name={CSRF_FIELD} value={props.signedIn.csrf} />
                  <button class="reject" type="submit" data-testid="member-remove">
                    {o.remove}
                  </button>
                </form>
              </div>
            ) : null}
          </div>
        );
      })}
    </Layout>
  );
}
