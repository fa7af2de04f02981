import type { Organisation } from '@idv/store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import type { Lang } from '../i18n.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../services/retention.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage, type signedInOf } from './parts.tsx';

export interface SettingsProps {
  lang: Lang;
  signedIn: ReturnType<typeof signedInOf>;
  org: Organisation;
  flash?: Flash;
}

/** Organisation settings: the image retention period (owner, admin; each change audited). */
export function SettingsPage(props: SettingsProps) {
  const o = OPS_MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={o.settings} signedIn={props.signedIn}>
      <h1>{o.settings}</h1>
      <FlashMessage flash={props.flash} />
      <section class="card">
        <dl>
          <dt>ID</dt>
          <dd>
            <code>{props.org.id}</code>
          </dd>
          <dt>{o.settings}</dt>
          <dd>{props.org.name}</dd>
          <dt>live</dt>
          <dd>{props.org.live_enabled ? '✓' : '—'}</dd>
        </dl>
      </section>
      <form class="card" method="post" action="/console/settings">
        <input type="hidden" name={CSRF_FIELD} value={props.signedIn.csrf} />
        <label for="retention">{o.retentionDays}</label>
        <input
          id="retention"
          type="number"
          name="retention_days"
          min={MIN_RETENTION_DAYS}
          max={MAX_RETENTION_DAYS}
          step={1}
          required
          value={String(props.org.retention_days)}
          data-testid="retention-days"
        />
        <p class="muted">{o.retentionHelp}</p>
        <div class="actions">
          <button class="primary" type="submit" data-testid="settings-save">
            {o.save}
          </button>
        </div>
      </form>
    </Layout>
  );
}
