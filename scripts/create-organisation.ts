/**
 * Creates an organisation with one application and a test and a live key on a deployed stage
 * (there is no sign-up yet), run through `sst shell`, which hands it the stage's linked resources:
 *
 *   npx sst shell --stage <stage> -- npx tsx scripts/create-organisation.ts "Acme Ltd" [--live]
 *
 * Prints the keys once: they are stored hashed and cannot be shown again.
 */
import { createStore, storeConfigFromEnv } from '@idv/store';
import { Resource } from 'sst';
import { applyLinkedSecrets } from '../functions/linked-secrets.ts';

type Linked = Record<string, { name?: string; url?: string } | undefined>;
const linked = Resource as unknown as Linked;
const fromStage = (name: string, field: 'name' | 'url') =>
  name in linked ? linked[name]?.[field] : undefined;

const env = { ...process.env };
applyLinkedSecrets(env);
env.TABLE_NAME = fromStage('Table', 'name') ?? env.TABLE_NAME;
env.BUCKET_NAME = fromStage('Images', 'name') ?? env.BUCKET_NAME;
env.EVENTS_QUEUE_URL = fromStage('Events', 'url') ?? env.EVENTS_QUEUE_URL;
env.EVENTS_DLQ_URL = fromStage('EventsDeadLetter', 'url') ?? env.EVENTS_DLQ_URL;
if (!env.TABLE_NAME) {
  console.error('No table: run this through `npx sst shell --stage <stage> -- …` (docs/deploy.md).');
  process.exit(1);
}

const name = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'First organisation';
const liveEnabled = process.argv.includes('--live');
const store = createStore(storeConfigFromEnv(env));
const { org, app } = await store.organisations.create({ name, appName: 'Default', liveEnabled });
const test = await store.apiKeys.create({ orgId: org.id, appId: app.id, mode: 'test' });
const live = await store.apiKeys.create({ orgId: org.id, appId: app.id, mode: 'live' });
console.log(
  JSON.stringify(
    {
      organisation: org.id,
      application: app.id,
      live_enabled: liveEnabled,
      test_key: test.secret,
      live_key: live.secret,
    },
    null,
    2,
  ),
);
