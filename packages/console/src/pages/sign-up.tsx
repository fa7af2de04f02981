import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import type { SignUpErrors, SignUpInput } from '../services/sign-up.ts';
import { Layout } from './layout.tsx';

export interface SignUpProps {
  lang: Lang;
  csrf: string;
  /** What was typed, shown again after a refusal (never the password). */
  values?: Partial<Omit<SignUpInput, 'password'>>;
  errors?: SignUpErrors;
  /** A refusal not tied to one field (an expired form). */
  error?: string;
}

export function SignUpPage(props: SignUpProps) {
  const t = MESSAGES[props.lang];
  const errors = props.errors ?? {};
  // Each problem is shown under its field and tied to it for screen readers.
  const problem = (field: keyof SignUpInput) => {
    const code = errors[field];
    return code ? (
      <p class="field-error" id={`${field}-error`} data-testid={`signup-error-${field}`}>
        {t[code]}
      </p>
    ) : null;
  };
  const described = (field: keyof SignUpInput) =>
    errors[field] ? { 'aria-invalid': 'true', 'aria-describedby': `${field}-error` } : {};
  return (
    <Layout lang={props.lang} title={t.signUp}>
      <h1>{t.signUp}</h1>
      <p class="muted">{t.signUpIntro}</p>
      {props.error ? (
        <p class="flash error" role="alert">
          {props.error}
        </p>
      ) : null}
      <form class="card" method="post" action="/console/sign-up" novalidate>
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        <label for="organisation">{t.organisationName}</label>
        <input
          id="organisation"
          name="organisation"
          type="text"
          autocomplete="organization"
          maxlength={100}
          value={props.values?.organisation ?? ''}
          data-testid="signup-organisation"
          {...described('organisation')}
        />
        {problem('organisation')}
        <label for="email">{t.email}</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          value={props.values?.email ?? ''}
          data-testid="signup-email"
          {...described('email')}
        />
        {problem('email')}
        <label for="password">{t.password}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          data-testid="signup-password"
          {...described('password')}
        />
        <p class="muted" style="margin:.25rem 0 0">
          {t.passwordHint}
        </p>
        {problem('password')}
        <div class="actions">
          <button class="primary" type="submit" data-testid="signup-submit">
            {t.signUp}
          </button>
        </div>
      </form>
      <p>
        <a href="/console/sign-in">{t.haveAccount}</a>
      </p>
    </Layout>
  );
}
