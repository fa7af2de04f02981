import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import { Layout } from './layout.tsx';

export interface SignInProps {
  lang: Lang;
  csrf: string;
  email?: string;
  error?: string;
  /** The platform operator's sign-in (a separate account kind) instead of an organisation user's. */
  operator?: boolean;
}

export function SignInPage(props: SignInProps) {
  const t = MESSAGES[props.lang];
  const heading = props.operator ? t.operatorSignIn : t.signIn;
  return (
    <Layout lang={props.lang} title={heading}>
      <h1>{heading}</h1>
      {props.error ? (
        <p class="flash error" role="alert">
          {props.error}
        </p>
      ) : null}
      <form
        class="card"
        method="post"
        action={props.operator ? '/console/operator/sign-in' : '/console/sign-in'}
      >
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        <label for="email">{t.email}</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={props.email ?? ''}
          data-testid="signin-email"
        />
        <label for="password">{t.password}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          data-testid="signin-password"
        />
        <div class="actions">
          <button class="primary" type="submit" data-testid="signin-submit">
            {t.signIn}
          </button>
        </div>
      </form>
      {props.operator ? null : (
        <p>
          <a href="/console/sign-up" data-testid="signup-link">
            {t.noAccount}
          </a>
        </p>
      )}
    </Layout>
  );
}
