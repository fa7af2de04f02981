import type { AuditEntry, Organisation } from '@idv/store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import type { OperatorAction } from '../services/operator-actions.ts';
import { Layout } from './layout.tsx';

interface OperatorFrame {
  lang: Lang;
  email: string;
  csrf: string;
  flash?: { text: string; error?: boolean };
}

function Flash(props: { flash?: { text: string; error?: boolean } }) {
  return props.flash ? (
    <p class={props.flash.error ? 'flash error' : 'flash'} role="status">
      {props.flash.text}
    </p>
  ) : null;
}

/** Every organisation, newest first, with its mode and suspension; paginated. */
export function OrganisationListPage(
  props: OperatorFrame & { orgs: Organisation[]; nextCursor: string | null },
) {
  const t = MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={t.organisations} operator={{ email: props.email, csrf: props.csrf }}>
      <h1>{t.organisations}</h1>
      <Flash flash={props.flash} />
      <form class="card" method="get" action="/console/operator/orgs">
        <label for="org-id">{t.findOrganisation}</label>
        <input id="org-id" name="id" type="text" placeholder="org_…" data-testid="operator-find-id" />
        <div class="actions">
          <button class="primary" type="submit">
            {t.open}
          </button>
        </div>
      </form>
      {props.orgs.length === 0 ? <p class="muted">{t.noOrganisations}</p> : null}
      {props.orgs.length > 0 ? (
        <div class="card" style="overflow-x:auto">
          <table>
            <thead>
              <tr>
                <th>{t.organisationName}</th>
                <th>{t.created}</th>
                <th>{t.live}</th>
                <th>{t.suspendedLabel}</th>
              </tr>
            </thead>
            <tbody>
              {props.orgs.map((org) => (
                <tr data-testid="operator-org-row" data-id={org.id}>
                  <td>
                    <a href={`/console/operator/orgs/${org.id}`}>{org.name}</a>
                    <br />
                    <code class="muted">{org.id}</code>
                  </td>
                  <td>{org.created_at.slice(0, 16).replace('T', ' ')}</td>
                  <td>{org.live_enabled ? t.liveActive : t.liveInactive}</td>
                  <td>{org.suspended ? t.yes : t.no}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {props.nextCursor ? (
        <p>
          <a href={`/console/operator?cursor=${encodeURIComponent(props.nextCursor)}`}>{t.nextPage}</a>
        </p>
      ) : null}
    </Layout>
  );
}

/** One organisation: its state, the operator's actions and the journal of those actions. */
export function OrganisationPage(props: OperatorFrame & { org: Organisation; journal: AuditEntry[] }) {
  const t = MESSAGES[props.lang];
  const { org } = props;
  const action = (name: OperatorAction, label: string, kind: 'primary' | 'reject' | 'approve') => (
    <form method="post" action={`/console/operator/orgs/${org.id}/${name.replace('_', '-')}`} class="card">
      <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
      <label for={`reason-${name}`}>{t.reason}</label>
      <input id={`reason-${name}`} name="reason" type="text" maxlength={500} />
      <div class="actions">
        <button class={kind} type="submit" data-testid={`operator-${name.replace('_', '-')}`}>
          {label}
        </button>
      </div>
    </form>
  );
  return (
    <Layout lang={props.lang} title={org.name} operator={{ email: props.email, csrf: props.csrf }}>
      <h1>{org.name}</h1>
      <Flash flash={props.flash} />
      <div class="card" data-testid="operator-org" data-id={org.id}>
        <dl>
          <dt>ID</dt>
          <dd>
            <code>{org.id}</code>
          </dd>
          <dt>{t.created}</dt>
          <dd>{org.created_at}</dd>
          <dt>{t.live}</dt>
          <dd data-testid="operator-live">{org.live_enabled ? t.liveActive : t.liveInactive}</dd>
          <dt>{t.suspendedLabel}</dt>
          <dd data-testid="operator-suspended">{org.suspended ? t.yes : t.no}</dd>
        </dl>
      </div>
      {org.live_enabled ? null : action('activate_live', t.activateLive, 'approve')}
      {org.suspended ? action('unsuspend', t.unsuspend, 'primary') : action('suspend', t.suspend, 'reject')}
      <h2 style="font-size:1.1rem">{t.journal}</h2>
      {props.journal.length === 0 ? <p class="muted">{t.noJournal}</p> : null}
      <ul>
        {props.journal.map((entry) => (
          <li data-testid="operator-journal-entry">
            <code>{entry.created_at}</code> {entry.action} ·{' '}
            {String(entry.details.operator_email ?? entry.actor)}
            {entry.details.reason ? ` · ${String(entry.details.reason)}` : ''}
          </li>
        ))}
      </ul>
    </Layout>
  );
}
