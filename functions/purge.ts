/** Daily job (AWS): deletes live images past their organisation's retention period. */
import { createStore, purgeExpiredImages, storeConfigFromEnv } from '@idv/store';

const store = createStore(storeConfigFromEnv());

export async function handler() {
  const result = await purgeExpiredImages(store);
  console.log(JSON.stringify({ level: 'info', msg: 'image purge done', ...result }));
  return result;
}
