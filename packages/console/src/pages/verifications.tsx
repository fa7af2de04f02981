import type { Mode, VerificationRecord } from '@idv/store';
import { type Lang, MESSAGES } from '../i18n.ts';
import { formatDate, OPS_MESSAGES } from '../operations-i18n.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage, Pager, type signedInOf } from './parts.tsx';

export interface VerificationsProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  /** The query as received, to refill the form and build the page links. */
  query: Record<string, string>;
  mode: Mode;
  items: VerificationRecord[];
  next: string | null;
  flash?: Flash;
}

/** Every verification of one mode, newest first, with the filters of the spec's console. */
export function VerificationsPage(props: VerificationsProps) {
  const t = MESSAGES[props.lang];
  const o = OPS_MESSAGES[props.lang];
  const q = props.query;
  return (
    <Layout lang={props.lang} title={o.verifications} signedIn={props.signedIn}>
      <h1>{o.verifications}</h1>
      <FlashMessage flash={props.flash} />
      <form
        class="card filters"
        method="get"
        action="/console/verifications"
        data-testid="verification-filters"
      >
        <div>
          <label for="f-mode">{t.mode}</label>
          <select id="f-mode" name="mode">
            {(['live', 'test'] as const).map((m) => (
              <option value={m} selected={props.mode === m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-verdict">{o.verdict}</label>
          <select id="f-verdict" name="verdict">
            <option value="">{o.any}</option>
            {(['verified', 'review', 'rejected'] as const).map((v) => (
              <option value={v} selected={q.verdict === v}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-final">{o.finalVerdict}</label>
          <select id="f-final" name="final_verdict">
            <option value="">{o.any}</option>
            <option value="none" selected={q.final_verdict === 'none'}>
              {o.undecided}
            </option>
            {(['verified', 'rejected'] as const).map((v) => (
              <option value={v} selected={q.final_verdict === v}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-from">{o.from}</label>
          <input id="f-from" type="date" name="from" value={q.from ?? ''} />
        </div>
        <div>
          <label for="f-to">{o.to}</label>
          <input id="f-to" type="date" name="to" value={q.to ?? ''} />
        </div>
        <div>
          <label for="f-ref">{o.reference}</label>
          <input id="f-ref" type="text" name="reference" maxlength={256} value={q.reference ?? ''} />
        </div>
        <div class="actions">
          <button class="primary" type="submit" data-testid="verification-filter">
            {o.filter}
          </button>
        </div>
      </form>
      {props.items.length === 0 ? <p class="muted">{o.noneFound}</p> : null}
      {props.items.length > 0 ? (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>{t.created}</th>
                <th>ID</th>
                <th>{t.document}</th>
                <th>{o.verdict}</th>
                <th>{o.finalVerdict}</th>
                <th>{t.score}</th>
                <th>{o.reference}</th>
              </tr>
            </thead>
            <tbody>
              {props.items.map((record) => {
                const v = record.verification;
                return (
                  <tr data-testid="verification-row" data-id={v.id}>
                    <td>{formatDate(props.lang, v.created_at)}</td>
                    <td>
                      <a href={`/console/verifications/${v.id}`} data-testid="verification-link">
                        <code>{v.id}</code>
                      </a>
                    </td>
                    <td>{v.document_type}</td>
                    <td>{v.verdict}</td>
                    <td>{v.final_verdict ?? '—'}</td>
                    <td>{v.score.toFixed(2)}</td>
                    <td>{record.reference ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager lang={props.lang} path="/console/verifications" query={q} next={props.next} />
    </Layout>
  );
}
