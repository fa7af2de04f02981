import { DocumentFieldsSchema, IMAGE_KINDS } from '@idv/core';
import type { AuditEntry, VerificationRecord } from '@idv/store';
import { type Lang, MESSAGES } from '../i18n.ts';
import { formatDate, formatUsd, OPS_MESSAGES } from '../operations-i18n.ts';
import { Layout } from './layout.tsx';
import type { signedInOf } from './parts.tsx';

/** What the detail page may show of the stored photos, decided by the route. */
export type PhotoAccess = 'shown' | 'role' | 'test' | 'purged' | 'none';

export interface VerificationDetailProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  record: VerificationRecord;
  /** The reviewer's decision (audit entry) and the email of its author, when decided. */
  decision: { entry: AuditEntry; author: string } | null;
  photos: PhotoAccess;
}

/** The fields in the spec's order (the stored map keeps none). */
const FIELD_ORDER = DocumentFieldsSchema.keyof().options;

export function VerificationDetailPage(props: VerificationDetailProps) {
  const t = MESSAGES[props.lang];
  const o = OPS_MESSAGES[props.lang];
  const { record } = props;
  const v = record.verification;
  const anomalies = v.checks.flatMap((check) => check.details?.anomalies ?? []);
  return (
    <Layout lang={props.lang} title={`${o.verification} ${v.id}`} signedIn={props.signedIn}>
      <h1>
        {o.verification} <code>{v.id}</code>
      </h1>
      <section class="card" data-testid="verification-summary">
        <dl>
          <dt>{t.created}</dt>
          <dd>{formatDate(props.lang, v.created_at)}</dd>
          <dt>{t.mode}</dt>
          <dd>{record.mode}</dd>
          <dt>{t.document}</dt>
          <dd>
            {v.document_type} {v.document.country ?? ''}
          </dd>
          <dt>{o.verdict}</dt>
          <dd data-testid="verification-verdict">{v.verdict}</dd>
          <dt>{o.finalVerdict}</dt>
          <dd data-testid="verification-final-verdict">{v.final_verdict ?? '—'}</dd>
          <dt>{t.score}</dt>
          <dd>{v.score.toFixed(2)}</dd>
          <dt>{o.reference}</dt>
          <dd>{record.reference ?? '—'}</dd>
          <dt>{o.latency}</dt>
          <dd>{v.latency_ms} ms</dd>
          <dt>{o.estimatedCost}</dt>
          <dd data-testid="verification-cost">{formatUsd(props.lang, record.cost?.total_usd ?? 0)}</dd>
        </dl>
      </section>

      <section class="card">
        <h2>{o.decision}</h2>
        {props.decision ? (
          <dl data-testid="verification-decision">
            <dt>{o.finalVerdict}</dt>
            <dd>{String(props.decision.entry.details.new_final_verdict ?? v.final_verdict)}</dd>
            <dt>{o.decidedBy}</dt>
            <dd>{props.decision.author}</dd>
            <dt>{t.created}</dt>
            <dd>{formatDate(props.lang, props.decision.entry.created_at)}</dd>
            <dt>{o.reviewNote}</dt>
            <dd>{String(props.decision.entry.details.note ?? '—')}</dd>
          </dl>
        ) : (
          <p class="muted">{o.notDecided}</p>
        )}
      </section>

      <section class="card">
        <h2>{t.checks}</h2>
        <ul class="checks" data-testid="verification-checks">
          {v.checks.map((check) => (
            <li data-check={check.name}>
              <strong>{check.name}</strong> {check.status}
              {check.score === null ? '' : ` (${check.score.toFixed(2)})`}
              <div class="muted">{check.explanation[props.lang]}</div>
            </li>
          ))}
        </ul>
      </section>

      <section class="card">
        <h2>{o.fields}</h2>
        <dl data-testid="verification-fields">
          {FIELD_ORDER.map((name) => (
            <>
              <dt>{name}</dt>
              <dd>{v.document.fields[name] ?? '—'}</dd>
            </>
          ))}
          {v.document.mrz ? (
            <>
              <dt>MRZ</dt>
              <dd>
                <code style="white-space:pre-wrap;word-break:break-all">
                  {v.document.mrz.lines.join('\n')}
                </code>
              </dd>
            </>
          ) : null}
        </dl>
      </section>

      <section class="card">
        <h2>{o.faceSimilarity}</h2>
        <p data-testid="verification-similarity">
          {v.face_match ? v.face_match.similarity.toFixed(2) : <span class="muted">{o.noSelfie}</span>}
        </p>
        <h2>{o.anomalies}</h2>
        {anomalies.length === 0 ? (
          <p class="muted">{o.noAnomaly}</p>
        ) : (
          <ul class="checks" data-testid="verification-anomalies">
            {anomalies.map((a) => (
              <li>
                <strong>{a.type}</strong> {a.severity}
                <div class="muted">{a.explanation[props.lang]}</div>
              </li>
            ))}
          </ul>
        )}
        <h2>{o.timings}</h2>
        <dl data-testid="verification-timings">
          {Object.entries(v.timings)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([step, ms]) => (
              <>
                <dt>{step}</dt>
                <dd>{ms} ms</dd>
              </>
            ))}
        </dl>
      </section>

      <section class="card" data-testid="verification-images">
        <h2>{o.images}</h2>
        <Photos {...props} />
      </section>
    </Layout>
  );
}

function Photos(props: VerificationDetailProps) {
  const o = OPS_MESSAGES[props.lang];
  const v = props.record.verification;
  if (props.photos === 'role') return <p class="muted">{o.imagesHidden}</p>;
  if (props.photos === 'test') return <p class="muted">{o.imagesTestMode}</p>;
  if (props.photos === 'purged') return <p class="muted">{o.imagesPurged}</p>;
  if (props.photos === 'none') return <p class="muted">{o.imagesNone}</p>;
  return (
    <>
      <p class="muted">{o.imagesAudited}</p>
      <div class="photos">
        {IMAGE_KINDS.filter((kind) => props.record.images[kind]).map((kind) => (
          // Each src asks the console for a fresh 5-minute URL (audited) and follows it (audited view).
          <figure style="margin:0">
            <img
              src={`/console/verifications/${v.id}/images/${kind}`}
              alt={kind}
              loading="lazy"
              data-testid="verification-image"
            />
            <figcaption class="muted">{kind}</figcaption>
          </figure>
        ))}
      </div>
    </>
  );
}
