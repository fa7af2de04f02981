import type { ApiKeyRecord, Role } from '@idv/store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import { Layout } from './layout.tsx';

export interface ApiKeysProps {
  lang: Lang;
  email: string;
  role: Role;
  csrf: string;
  keys: ApiKeyRecord[];
  /** The full secret of the key just created: shown this once only. */
  secret?: string;
  flash?: { text: string; error?: boolean };
}

export function ApiKeysPage(props: ApiKeysProps) {
  const t = MESSAGES[props.lang];
  return (
    <Layout
      lang={props.lang}
      title={t.apiKeys}
      signedIn={{ email: props.email, role: props.role, csrf: props.csrf }}
    >
      <h1>{t.apiKeys}</h1>
      {props.flash ? (
        <p class={props.flash.error ? 'flash error' : 'flash'} role="status">
          {props.flash.text}
        </p>
      ) : null}
      {props.secret ? (
        <div class="flash" role="status">
          <p style="margin:0 0 .5rem">{t.keyCreated}</p>
          <code data-testid="key-secret" style="word-break:break-all">
            {props.secret}
          </code>
        </div>
      ) : null}
      <form class="card" method="post" action="/console/keys">
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        <label for="mode">{t.mode}</label>
        <select id="mode" name="mode" data-testid="key-mode">
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
        <div class="actions">
          <button class="primary" type="submit" data-testid="key-create">
            {t.createKey}
          </button>
        </div>
      </form>
      {props.keys.length === 0 ? <p class="muted">{t.noKeys}</p> : null}
      {props.keys.map((key) => (
        <div class="card" data-testid="key-row" data-id={key.id}>
          <dl>
            <dt>{t.prefix}</dt>
            <dd>
              <code>{key.display_prefix}</code>
            </dd>
            <dt>{t.mode}</dt>
            <dd>{key.mode}</dd>
            <dt>{t.created}</dt>
            <dd>{key.created_at}</dd>
            <dt>{t.lastUsed}</dt>
            {/* Recorded to the minute: the API writes a key's use at most once a minute. */}
            <dd data-testid="key-last-used">
              {key.last_used_at ? key.last_used_at.slice(0, 16).replace('T', ' ') : t.never}
            </dd>
            <dt>{t.state}</dt>
            <dd>{key.revoked_at ? `${t.revoked} (${key.revoked_at})` : t.active}</dd>
          </dl>
          {key.revoked_at ? null : (
            <form method="post" action={`/console/keys/${key.id}/revoke`} class="actions">
              <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
              <button class="reject" type="submit" data-testid="key-revoke">
                {t.revoke}
              </button>
            </form>
          )}
        </div>
      ))}
    </Layout>
  );
}
