import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ConsoleEnv } from '../env.ts';
import type { Lang } from '../i18n.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';

/** What the layout needs to show the signed-in header. */
export function signedInOf(c: Context<ConsoleEnv>) {
  const user = c.get('user');
  return { email: user.email, role: user.role, csrf: c.get('csrf') };
}

export type Flash = { text: string; error?: boolean };

export function FlashMessage(props: { flash?: Flash }) {
  if (!props.flash) return null;
  return (
    <p class={props.flash.error ? 'flash error' : 'flash'} role={props.flash.error ? 'alert' : 'status'}>
      {props.flash.text}
    </p>
  );
}

/**
 * "Next page" keeps the current filters and adds the store's cursor; "first page" drops it.
 * The cursor is opaque: the store refuses one it did not make.
 */
export function Pager(props: {
  lang: Lang;
  path: string;
  query: Record<string, string>;
  next: string | null;
}) {
  const t = OPS_MESSAGES[props.lang];
  const { cursor, ...rest } = props.query;
  const base = new URLSearchParams(rest);
  const nextQuery = new URLSearchParams(rest);
  if (props.next) nextQuery.set('cursor', props.next);
  return (
    <p class="actions">
      {cursor ? <a href={`${props.path}?${base.toString()}`}>{t.firstPage}</a> : null}
      {props.next ? (
        <a href={`${props.path}?${nextQuery.toString()}`} data-testid="next-page" rel="next">
          {t.nextPage}
        </a>
      ) : null}
    </p>
  );
}

/**
 * A list page's table: a muted line when there is nothing to show, otherwise the headings and
 * one row per item, scrolling sideways inside the page at phone width.
 */
export function RowsTable<T>(props: {
  empty: string;
  headings: string[];
  rows: T[];
  row: (item: T) => Child;
}) {
  if (props.rows.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            {props.headings.map((heading) => (
              <th>{heading}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.rows.map((item) => props.row(item))}</tbody>
      </table>
    </div>
  );
}
