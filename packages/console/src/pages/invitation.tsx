import type { Lang } from '../i18n.ts';
import { OPS_MESSAGES } from '../operations-i18n.ts';
import { MIN_PASSWORD_LENGTH } from '../services/team.ts';
import { Layout } from './layout.tsx';
import { type Flash, FlashMessage } from './parts.tsx';

/** The page an invitation link opens: the invited person chooses a password, once. */
export function InvitationPage(props: { lang: Lang; email: string | null; action: string; flash?: Flash }) {
  const o = OPS_MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={o.invitationTitle}>
      <h1>{o.invitationTitle}</h1>
      <FlashMessage flash={props.flash} />
      {props.email ? (
        <form class="card" method="post" action={props.action}>
          <p>{props.email}</p>
          <label for="new-password">{o.choosePassword}</label>
          <input
            id="new-password"
            type="password"
            name="password"
            required
            minlength={MIN_PASSWORD_LENGTH}
            autocomplete="new-password"
            data-testid="invitation-password"
          />
          <div class="actions">
            <button class="primary" type="submit" data-testid="invitation-submit">
              {o.join}
            </button>
          </div>
        </form>
      ) : (
        <p>
          <a href="/console/sign-in">{o.invitationTitle}</a>
        </p>
      )}
    </Layout>
  );
}
