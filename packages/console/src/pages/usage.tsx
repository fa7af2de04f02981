import { FREE_LIVE_VERIFICATIONS_PER_MONTH } from '@idv/store';
import type { Lang } from '../i18n.ts';
import { formatUsd, OPS_MESSAGES } from '../operations-i18n.ts';
import type { UsageSummary } from '../services/usage-report.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage, type signedInOf } from './parts.tsx';

export interface UsageProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  month: string;
  usage: UsageSummary;
  flash?: Flash;
}

/** Live verifications of a month, what is left of the free ones, the billable count and cost. */
export function UsagePage(props: UsageProps) {
  const o = OPS_MESSAGES[props.lang];
  const u = props.usage;
  return (
    <Layout lang={props.lang} title={o.usage} signedIn={props.signedIn}>
      <h1>{o.usage}</h1>
      <FlashMessage flash={props.flash} />
      <form class="card" method="get" action="/console/usage">
        <label for="month">{o.month}</label>
        <input id="month" type="month" name="month" value={props.month} style="min-height:44px" />
        <div class="actions">
          <button class="primary" type="submit">
            {o.filter}
          </button>
        </div>
      </form>
      <section class="card">
        <dl data-testid="usage-summary">
          <dt>{o.month}</dt>
          <dd>{props.month}</dd>
          <dt>{o.liveVerifications}</dt>
          <dd data-testid="usage-live">{u.live_verifications}</dd>
          <dt>{o.freeUsed}</dt>
          <dd>
            {u.free} / {FREE_LIVE_VERIFICATIONS_PER_MONTH}
          </dd>
          <dt>{o.freeLeft}</dt>
          <dd data-testid="usage-free-left">{u.free_left}</dd>
          <dt>{o.billable}</dt>
          <dd data-testid="usage-billable">{u.billable}</dd>
          <dt>{o.estimatedCost}</dt>
          <dd data-testid="usage-cost">{formatUsd(props.lang, u.cost_usd)}</dd>
        </dl>
        <p class="actions">
          <a href={`/console/usage.csv?month=${props.month}`} data-testid="usage-csv" download>
            {o.exportCsv}
          </a>
        </p>
      </section>
    </Layout>
  );
}
