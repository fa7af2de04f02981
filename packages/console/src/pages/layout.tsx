import type { Role } from '@idv/store';
import type { Child } from 'hono/jsx';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { can } from '../auth/permissions.ts';
import { type Lang, MESSAGES } from '../i18n.ts';
import { NAV, navLabel, OPERATOR_NAV } from './nav.ts';

// One small stylesheet inline: readable at phone width (320 px) without any client script.
const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#1b1f24;background:#f6f7f9}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;background:#fff;border-bottom:1px solid #dde1e6}
header a,header button{color:#0b57d0;text-decoration:none;background:none;border:0;font:inherit;cursor:pointer;padding:0}
nav{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;min-width:0}.who{overflow-wrap:anywhere}
dd{overflow-wrap:anywhere;margin:0}
main{max-width:56rem;margin:0 auto;padding:1rem}
h1{font-size:1.35rem;margin:.25rem 0 1rem}
.card{background:#fff;border:1px solid #dde1e6;border-radius:.5rem;padding:1rem;margin-bottom:1rem}
.muted{color:#5f6b7a}.flash{padding:.75rem 1rem;border-radius:.5rem;background:#e7f0fe;margin-bottom:1rem}
.error{background:#fde8e8}
label{display:block;margin:.5rem 0 .25rem;font-weight:600}
input[type=email],input[type=password],input[type=text],textarea{width:100%;padding:.6rem;font:inherit;border:1px solid #b8c0ca;border-radius:.4rem}
textarea{min-height:5rem}
select{padding:.5rem;font:inherit;min-height:44px;border:1px solid #b8c0ca;border-radius:.4rem}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.75rem}
button.primary,button.approve,button.reject{padding:.6rem 1.1rem;font:inherit;border:0;border-radius:.4rem;color:#fff;cursor:pointer;min-height:44px}
button.primary{background:#0b57d0}button.approve{background:#137333}button.reject{background:#b3261e}
ul.checks{padding-left:1.1rem;margin:.5rem 0}
.field-error{color:#b3261e;margin:.25rem 0 0}.qr svg{width:min(100%,18rem);height:auto;display:block}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem .75rem;margin:0}dt{color:#5f6b7a}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;width:100%;background:#fff;font-size:.9rem}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #dde1e6;vertical-align:top}th{color:#5f6b7a;font-weight:600}
input[type=text],input[type=url],input[type=number],input[type=date]{width:100%;padding:.55rem;font:inherit;border:1px solid #b8c0ca;border-radius:.4rem;min-height:44px}
.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:0 .75rem}
.photos{display:flex;flex-wrap:wrap;gap:.5rem}.photos img{max-width:100%;width:14rem;border-radius:.4rem;border:1px solid #dde1e6}
`;

export function Layout(props: {
  lang: Lang;
  title: string;
  /** Set once signed in: shows the email and the sign-out form. */
  signedIn?: { email: string; role: Role; csrf: string };
  /** Set on the platform operator's pages instead. */
  operator?: { email: string; csrf: string };
  children?: Child;
}) {
  const t = MESSAGES[props.lang];
  const account = props.signedIn ?? props.operator;
  const role = props.signedIn?.role;
  const other: Lang = props.lang === 'fr' ? 'en' : 'fr';
  return (
    <html lang={props.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${t.title}`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <header>
          <strong>{props.operator ? t.operator : t.title}</strong>
          <nav>
            {account ? <span class="muted who">{account.email}</span> : null}
            {role
              ? NAV.filter((entry) => can(role, entry.permission)).map((entry) => (
                  <a href={entry.href}>{navLabel(entry, props.lang)}</a>
                ))
              : null}
            {props.operator ? OPERATOR_NAV.map((entry) => <a href={entry.href}>{t[entry.label]}</a>) : null}
            <a href={`?lang=${other}`} hreflang={other}>
              {t.language}
            </a>
            {account ? (
              <form method="post" action="/console/sign-out" style="margin:0">
                <input type="hidden" name={CSRF_FIELD} value={account.csrf} />
                <button type="submit" data-testid="signout-submit">
                  {t.signOut}
                </button>
              </form>
            ) : null}
          </nav>
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}
