import type { Application, WebhookEndpoint } from '@idv/store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import { formatDate, OPS_MESSAGES } from '../operations-i18n.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage, type signedInOf } from './parts.tsx';

export interface WebhooksProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  endpoints: WebhookEndpoint[];
  applications: Application[];
  /** The signing secret of the endpoint just created: shown this once only. */
  secret?: string;
  /** The form as sent, refilled after a refusal. */
  form?: { url: string; description: string };
  flash?: Flash;
}

/** The organisation's webhook endpoints: add (secret shown once), delete, open the deliveries. */
export function WebhooksPage(props: WebhooksProps) {
  const t = MESSAGES[props.lang];
  const o = OPS_MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={o.webhooks} signedIn={props.signedIn}>
      <h1>{o.webhooks}</h1>
      <FlashMessage flash={props.flash} />
      {props.secret ? (
        <div class="flash" role="status">
          <p style="margin:0 0 .5rem">{o.secretShown}</p>
          <code data-testid="webhook-secret" style="word-break:break-all">
            {props.secret}
          </code>
        </div>
      ) : null}
      <form class="card" method="post" action="/console/webhooks">
        <input type="hidden" name={CSRF_FIELD} value={props.signedIn.csrf} />
        <label for="wh-url">{o.url}</label>
        <input
          id="wh-url"
          type="url"
          name="url"
          required
          maxlength={2048}
          placeholder="https://"
          value={props.form?.url ?? ''}
          data-testid="webhook-url"
        />
        <label for="wh-description">{o.description}</label>
        <input
          id="wh-description"
          type="text"
          name="description"
          maxlength={500}
          value={props.form?.description ?? ''}
        />
        {props.applications.length > 1 ? (
          <>
            <label for="wh-app">Application</label>
            <select id="wh-app" name="app_id">
              {props.applications.map((a) => (
                <option value={a.id}>{a.name}</option>
              ))}
            </select>
          </>
        ) : null}
        <div class="actions">
          <button class="primary" type="submit" data-testid="webhook-create">
            {o.createEndpoint}
          </button>
        </div>
      </form>
      {props.endpoints.length === 0 ? <p class="muted">{o.noEndpoint}</p> : null}
      {props.endpoints.map((endpoint) => (
        <div class="card" data-testid="webhook-row" data-id={endpoint.id}>
          <dl>
            <dt>{o.url}</dt>
            <dd>
              <code>{endpoint.url}</code>
            </dd>
            <dt>{o.description}</dt>
            <dd>{endpoint.description || '—'}</dd>
            <dt>Application</dt>
            <dd>
              <code>{endpoint.app_id}</code>
            </dd>
            <dt>{t.created}</dt>
            <dd>{formatDate(props.lang, endpoint.created_at)}</dd>
          </dl>
          <div class="actions">
            <a href={`/console/webhooks/${endpoint.id}`} data-testid="webhook-deliveries">
              {o.deliveries}
            </a>
          </div>
          <form method="post" action={`/console/webhooks/${endpoint.id}/delete`} class="actions">
            <input type="hidden" name={CSRF_FIELD} value={props.signedIn.csrf} />
            <button class="reject" type="submit" data-testid="webhook-delete">
              {o.deleteEndpoint}
            </button>
          </form>
        </div>
      ))}
    </Layout>
  );
}
