import type { WebhookDelivery, WebhookEndpoint } from '@idv/store';
import { type Lang, MESSAGES } from '../i18n.ts';
import { formatDate, OPS_MESSAGES } from '../operations-i18n.ts';
import { Layout } from './layout.tsx';
import { RowsTable, type signedInOf } from './parts.tsx';

export interface WebhookDeliveriesProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  endpoint: WebhookEndpoint;
  deliveries: WebhookDelivery[];
}

/** The last 50 deliveries of one endpoint: state, attempts, last status and error. */
export function WebhookDeliveriesPage(props: WebhookDeliveriesProps) {
  const t = MESSAGES[props.lang];
  const o = OPS_MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={o.deliveries} signedIn={props.signedIn}>
      <h1>{o.deliveries}</h1>
      <p>
        <code style="word-break:break-all">{props.endpoint.url}</code>
      </p>
      <p>
        <a href="/console/webhooks">{o.webhooks}</a>
      </p>
      <RowsTable
        empty={o.noDelivery}
        headings={[t.created, t.state, o.attempts, o.lastStatus, o.lastError, o.nextAttempt, o.event]}
        rows={props.deliveries}
        row={(d) => (
          <tr data-testid="delivery-row" data-id={d.id} data-status={d.status}>
            <td>{formatDate(props.lang, d.created_at)}</td>
            <td>{o[`status_${d.status}`]}</td>
            <td data-testid="delivery-attempts">{d.attempts}</td>
            <td>{d.last_status_code ?? '—'}</td>
            <td style="overflow-wrap:anywhere">{d.last_error ?? '—'}</td>
            <td>{formatDate(props.lang, d.next_attempt_at)}</td>
            <td>
              <code>{d.event_id}</code>
            </td>
          </tr>
        )}
      />
    </Layout>
  );
}
