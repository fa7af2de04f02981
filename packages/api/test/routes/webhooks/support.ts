import { bearer, testApp } from '../../support.ts';

/**
 * The app as the webhook route tests use it: the localhost allowance on (as in local runs),
 * and public hosts "resolved" by a stand-in, since the test machine has no DNS.
 */
export function webhookApp() {
  return testApp({
    webhooks: {
      allowLocalhost: true,
      resolve: async (host) => (host.endsWith('.internal.example') ? ['10.0.0.7'] : ['93.184.215.14']),
    },
  });
}

/** A POST of a JSON body with a key. */
export function postJson(key: string, body: unknown) {
  return {
    method: 'POST',
    body: JSON.stringify(body),
    ...bearer(key, { 'content-type': 'application/json' }),
  };
}

/** Creates an endpoint and returns it as the creation answered (with its secret). */
export async function createEndpoint(
  app: ReturnType<typeof webhookApp>,
  key: string,
  url = 'https://hooks.example.com/idv',
): Promise<{ id: string; url: string; secret: string }> {
  const res = await app.request('/v1/webhooks', postJson(key, { url, description: 'test' }));
  if (res.status !== 201) throw new Error(`endpoint creation answered ${res.status}`);
  return res.json();
}
