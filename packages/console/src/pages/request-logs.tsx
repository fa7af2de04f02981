import type { Mode, RequestLogEntry } from '@idv/store';
import { type Lang, MESSAGES } from '../i18n.ts';
import { formatDate, OPS_MESSAGES } from '../operations-i18n.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage, Pager, RowsTable, type signedInOf } from './parts.tsx';

export interface RequestLogsProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  query: Record<string, string>;
  mode: Mode;
  entries: RequestLogEntry[];
  next: string | null;
  flash?: Flash;
}

/** The API calls of one mode, newest first: metadata only (the store keeps no body). */
export function RequestLogsPage(props: RequestLogsProps) {
  const t = MESSAGES[props.lang];
  const o = OPS_MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={o.logs} signedIn={props.signedIn}>
      <h1>{o.logs}</h1>
      <FlashMessage flash={props.flash} />
      <form class="card filters" method="get" action="/console/logs">
        <div>
          <label for="l-mode">{t.mode}</label>
          <select id="l-mode" name="mode">
            {(['live', 'test'] as const).map((m) => (
              <option value={m} selected={props.mode === m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="l-status">{o.httpStatus}</label>
          <input
            id="l-status"
            type="number"
            name="status"
            min={100}
            max={599}
            value={props.query.status ?? ''}
          />
        </div>
        <div>
          <label for="l-route">{o.route}</label>
          <input id="l-route" type="text" name="route" maxlength={200} value={props.query.route ?? ''} />
        </div>
        <div class="actions">
          <button class="primary" type="submit">
            {o.filter}
          </button>
        </div>
      </form>
      <RowsTable
        empty={o.noneFound}
        headings={[t.created, o.method, o.route, o.httpStatus, o.errorCode, o.key, o.duration, o.resource]}
        rows={props.entries}
        row={(e) => (
          <tr data-testid="log-row" data-id={e.id}>
            <td>{formatDate(props.lang, e.created_at)}</td>
            <td>{e.method}</td>
            <td>
              <code>{e.route}</code>
            </td>
            <td>{e.status}</td>
            <td>{e.error_code ?? '—'}</td>
            <td>
              <code>{e.key ?? '—'}</code>
            </td>
            <td>{e.duration_ms} ms</td>
            <td>
              {e.resource_id?.startsWith('vrf_') ? (
                <a href={`/console/verifications/${e.resource_id}`}>
                  <code>{e.resource_id}</code>
                </a>
              ) : (
                <code>{e.resource_id ?? '—'}</code>
              )}
            </td>
          </tr>
        )}
      />
      <Pager lang={props.lang} path="/console/logs" query={props.query} next={props.next} />
    </Layout>
  );
}
