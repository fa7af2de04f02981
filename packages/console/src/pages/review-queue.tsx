import type { Role, VerificationRecord } from '@idv/store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import { Layout } from './layout.tsx';

export interface ReviewQueueProps {
  lang: Lang;
  email: string;
  role: Role;
  csrf: string;
  items: VerificationRecord[];
  /** False for roles that may see the queue but not decide (developer). */
  canDecide: boolean;
  flash?: { text: string; error?: boolean };
}

export function ReviewQueuePage(props: ReviewQueueProps) {
  const t = MESSAGES[props.lang];
  return (
    <Layout
      lang={props.lang}
      title={t.reviewQueue}
      signedIn={{ email: props.email, role: props.role, csrf: props.csrf }}
    >
      <h1>{t.reviewQueue}</h1>
      {props.flash ? (
        <p class={props.flash.error ? 'flash error' : 'flash'} role="status">
          {props.flash.text}
        </p>
      ) : null}
      {props.canDecide ? null : <p class="muted">{t.readOnly}</p>}
      {props.items.length === 0 ? <p class="muted">{t.reviewEmpty}</p> : null}
      {props.items.map((record) => (
        <ReviewItem record={record} lang={props.lang} csrf={props.csrf} canDecide={props.canDecide} />
      ))}
    </Layout>
  );
}

function ReviewItem(props: { record: VerificationRecord; lang: Lang; csrf: string; canDecide: boolean }) {
  const t = MESSAGES[props.lang];
  const v = props.record.verification;
  return (
    <section class="card" data-testid="review-item" data-id={v.id}>
      <dl>
        <dt>ID</dt>
        <dd>
          <code>{v.id}</code>
        </dd>
        <dt>{t.created}</dt>
        <dd>{v.created_at}</dd>
        <dt>{t.mode}</dt>
        <dd>{props.record.mode}</dd>
        <dt>{t.document}</dt>
        <dd>{v.document_type}</dd>
        <dt>{t.score}</dt>
        <dd>{v.score.toFixed(2)}</dd>
      </dl>
      <ul class="checks" aria-label={t.checks}>
        {v.checks.map((check) => (
          <li>
            <strong>{check.name}</strong> {check.status}
            <span class="muted"> · {check.explanation[props.lang]}</span>
          </li>
        ))}
      </ul>
      {props.canDecide ? (
        <form method="post" action={`/console/reviews/${v.id}/decision`}>
          <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
          <label for={`note-${v.id}`}>{t.note}</label>
          <textarea id={`note-${v.id}`} name="note" maxlength={2000} data-testid="review-note" />
          <div class="actions">
            <button
              class="approve"
              type="submit"
              name="decision"
              value="approve"
              data-testid="review-approve"
            >
              {t.approve}
            </button>
            <button class="reject" type="submit" name="decision" value="reject" data-testid="review-reject">
              {t.reject}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
