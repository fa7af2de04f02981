/**
 * Daily job (AWS, an EventBridge schedule in infra/purge.ts): deletes live images past their
 * organisation's retention period and direct uploads never used, as of the event's scheduled time (EventBridge's `time`; the
 * wall clock when it has none). A delayed or retried run thus never purges more than its slot
 * allowed, and the next day's run picks up whatever it left.
 */
import { createStore, purgeExpiredImages, purgeExpiredUploads, storeConfigFromEnv } from '@idv/store';
import { applyLinkedSecrets } from './linked-secrets.ts';

applyLinkedSecrets();
const store = createStore(storeConfigFromEnv());

/** The fields of an EventBridge scheduled event ("Scheduled Event") the purge reads. */
export interface ScheduledEvent {
  'detail-type'?: string;
  time?: string;
}

export async function handler(event?: ScheduledEvent) {
  const scheduled = event?.time ? new Date(event.time) : undefined;
  const now = scheduled && !Number.isNaN(scheduled.getTime()) ? scheduled : new Date();
  const result = await purgeExpiredImages(store, now);
  // Uploads expire by the clock: a scheduled time is never ahead of it in production, and one
  // that is (a test's) must not take uploads still within their hour.
  const uploads = await purgeExpiredUploads(store, new Date(Math.min(now.getTime(), Date.now())));
  console.log(JSON.stringify({ level: 'info', msg: 'image purge done', ...result, uploads: uploads.purged }));
  return { ...result, uploads: uploads.purged };
}
