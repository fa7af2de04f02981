import { type Lang, MESSAGES } from '../i18n.ts';
import { Layout } from './layout.tsx';

export function ErrorPage(props: { lang: Lang; message: string }) {
  return (
    <Layout lang={props.lang} title={MESSAGES[props.lang].title}>
      <p class="flash error" role="alert">
        {props.message}
      </p>
      <p>
        <a href="/console">{MESSAGES[props.lang].title}</a>
      </p>
    </Layout>
  );
}
