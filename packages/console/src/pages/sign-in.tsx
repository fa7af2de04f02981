import { CSRF_FIELD } from '../auth/csrf.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import { Layout } from './layout.tsx';

export function SignInPage(props: { lang: Lang; csrf: string; email?: string; error?: string }) {
  const t = MESSAGES[props.lang];
  return (
    <Layout lang={props.lang} title={t.signIn}>
      <h1>{t.signIn}</h1>
      {props.error ? (
        <p class="flash error" role="alert">
          {props.error}
        </p>
      ) : null}
      <form class="card" method="post" action="/console/sign-in">
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
    </Layout>
  );
}
