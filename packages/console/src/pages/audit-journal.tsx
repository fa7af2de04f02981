import type { AuditEntry } from '@idv/store';
import { type Lang, MESSAGES } from '../i18n.ts';
import { formatDate, OPS_MESSAGES } from '../operations-i18n.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage, Pager, RowsTable, type signedInOf } from './parts.tsx';

export interface AuditJournalProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  query: Record<string, string>;
  entries: AuditEntry[];
  /** Console users' ids mapped to their emails, so an entry names a person. */
  people: Map<string, string>;
  next: string | null;
  flash?: Flash;
}

/** The organisation's audit journal, newest first (kept without time limit). */
export function AuditJournalPage(props: AuditJournalProps) {
  const t = MESSAGES[props.lang];
  const o = OPS_MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={o.audit} signedIn={props.signedIn}>
      <h1>{o.audit}</h1>
      <FlashMessage flash={props.flash} />
      <RowsTable
        empty={o.noneFound}
        headings={[t.created, o.action, o.actor, o.resource, o.details]}
        rows={props.entries}
        row={(e) => (
          <tr data-testid="audit-row" data-id={e.id} data-action={e.action}>
            <td>{formatDate(props.lang, e.created_at)}</td>
            <td>
              <code>{e.action}</code>
            </td>
            <td style="overflow-wrap:anywhere">{props.people.get(e.actor) ?? e.actor}</td>
            <td>
              <code>{e.resource_id ?? '—'}</code>
            </td>
            <td style="overflow-wrap:anywhere">
              <code>{Object.keys(e.details).length > 0 ? JSON.stringify(e.details) : '—'}</code>
            </td>
          </tr>
        )}
      />
      <Pager lang={props.lang} path="/console/audit" query={props.query} next={props.next} />
    </Layout>
  );
}
