import type { Role } from '@idv/store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES, type Messages } from '../i18n.ts';
import type { QrState } from '../services/qr-sessions.ts';
import { Layout } from './layout.tsx';

export const QR_STATE_LABEL: Record<QrState, keyof Messages> = {
  awaiting: 'qrAwaiting',
  opened: 'qrOpened',
  received: 'qrReceived',
  expired: 'qrExpired',
};

/** Where the console shows one verification (the verifications pages). */
export function verificationHref(id: string): string {
  return `/console/verifications/${id}`;
}

export interface QrSessionProps {
  lang: Lang;
  email: string;
  role: Role;
  csrf: string;
  /** Live mode may be chosen only once the operator activated it. */
  liveEnabled: boolean;
  /** The session just created: its capture link (token after `#`) and that link as an SVG QR code. */
  created?: { id: string; url: string; svg: string; expiresAt: string };
  flash?: { text: string; error?: boolean };
}

// Polls the session's state every 2 s until it is final; no reload, no library. The labels come
// from the server in the page's language.
const POLL_SCRIPT = `
(() => {
  const box = document.getElementById('qr-session');
  if (!box) return;
  const state = box.querySelector('[data-testid="qr-state"]');
  const result = document.getElementById('qr-result');
  const again = document.getElementById('qr-again');
  const code = document.getElementById('qr-live');
  const tick = async () => {
    let next = null;
    try {
      const res = await fetch(box.dataset.poll, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (res.ok) next = await res.json();
    } catch {}
    if (next) {
      state.textContent = next.label;
      state.dataset.state = next.state;
      if (next.state === 'received' && next.result_url) {
        result.querySelector('a').href = next.result_url;
        result.hidden = false;
      }
      if (next.state === 'received' || next.state === 'expired') code.hidden = true;
      if (next.state === 'expired') again.hidden = false;
      if (next.state === 'received' || next.state === 'expired') return;
    }
    setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
})();
`;

export function QrSessionPage(props: QrSessionProps) {
  const t = MESSAGES[props.lang];
  const createForm = (label: string, testId: string) => (
    <form method="post" action="/console/qr" class="actions">
      <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
      {props.liveEnabled ? (
        <select name="mode" aria-label={t.mode} data-testid="qr-mode">
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
      ) : (
        <input type="hidden" name="mode" value="test" />
      )}
      <button class="primary" type="submit" data-testid={testId}>
        {label}
      </button>
    </form>
  );
  return (
    <Layout
      lang={props.lang}
      title={t.qrSessions}
      signedIn={{ email: props.email, role: props.role, csrf: props.csrf }}
    >
      <h1>{t.qrSessions}</h1>
      {props.flash ? (
        <p class={props.flash.error ? 'flash error' : 'flash'} role="status">
          {props.flash.text}
        </p>
      ) : null}
      <p class="muted">{t.qrIntro}</p>
      {props.created ? null : <div class="card">{createForm(t.qrCreate, 'qr-create')}</div>}
      {props.created ? (
        <section
          class="card"
          id="qr-session"
          data-id={props.created.id}
          data-poll={`/console/qr/${props.created.id}/state`}
        >
          <div id="qr-live">
            <div
              class="qr"
              data-testid="qr-code"
              role="img"
              aria-label={t.qrSessions}
              // The SVG is made on the server by the QR encoder from our own link.
              dangerouslySetInnerHTML={{ __html: props.created.svg }}
            />
            <p>
              {t.qrLink}
              <br />
              <a href={props.created.url} data-testid="qr-link" style="word-break:break-all" rel="noreferrer">
                {props.created.url}
              </a>
            </p>
          </div>
          <p aria-live="polite">
            {t.state}:{' '}
            <strong data-testid="qr-state" data-state="awaiting">
              {t.qrAwaiting}
            </strong>
          </p>
          <p id="qr-result" hidden>
            <a href="/console/reviews" data-testid="qr-result">
              {t.qrResult}
            </a>
          </p>
          <div id="qr-again" hidden>
            {createForm(t.qrRegenerate, 'qr-regenerate')}
          </div>
          <script dangerouslySetInnerHTML={{ __html: POLL_SCRIPT }} />
        </section>
      ) : null}
    </Layout>
  );
}
