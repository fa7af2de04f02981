/**
 * Daily job (AWS, an EventBridge schedule in infra/purge.ts): deletes live images past their
 * organisation's retention period. The scheduled event carries nothing the purge needs: "now"
 * is the wall clock.
 */
import { createStore, purgeExpiredImages, storeConfigFromEnv } from '@idv/store';
import { applyLinkedSecrets } from './linked-secrets.ts';

applyLinkedSecrets();
const store = createStore(storeConfigFromEnv());

export async function handler(_event?: unknown) {
  const result = await purgeExpiredImages(store);
  console.log(JSON.stringify({ level: 'info', msg: 'image purge done', ...result }));
  return result;
}
