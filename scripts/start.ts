/**
 * `npm start`: the whole service on this machine, with no cloud account, Docker or network.
 * Starts the local AWS stand-ins (DynamoDB Local, fauxqs for S3 and SQS), creates what is
 * missing, seeds an organisation on first start, serves the API and prints how to use it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp, gatewayLimitsFromEnv } from '@idv/api';
import { startNodeServer } from '@idv/api/node-server';
import { deriveConsoleSessionKey, mountConsole } from '@idv/console';
import { createStore, purgeExpiredUploads } from '@idv/store';
import { type LocalCredentials, seedLocal, startLocalServers } from '@idv/store/local';
import { createWorkerAnalyzer, inProcessAnalyzer, warmUpAnalyzer } from '@idv/vision';
import { startWebhookWorker, webhookEventPublisher } from '@idv/webhooks';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const port = Number(process.env.PORT ?? 8787);
const baseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
const lockFile = resolve(dataDir, 'start.lock');
const credentialsFile = resolve(dataDir, 'local.json');
const secretsFile = resolve(dataDir, 'secrets.json');
const runtimeFile = resolve(dataDir, 'runtime.json');

/** This machine's service secrets (image master key, URL signing key), made on first start. */
function localSecrets(): { image_master_key: string; url_signing_key: string } {
  try {
    return JSON.parse(readFileSync(secretsFile, 'utf8'));
  } catch {
    const secrets = {
      image_master_key: randomBytes(32).toString('base64'),
      url_signing_key: randomBytes(32).toString('base64'),
    };
    writeFileSync(secretsFile, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    return secrets;
  }
}

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One `npm start` per data folder: a second one would corrupt DynamoDB Local's file. */
function takeLock(): void {
  mkdirSync(dataDir, { recursive: true });
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid && processAlive(pid)) {
      fail(
        `The service is already running (process ${pid}) with data in ${dataDir}.\nStop it with Ctrl-C first, or use another DATA_DIR.`,
      );
    }
  }
  writeFileSync(lockFile, String(process.pid));
}

function readPreviousCredentials(): LocalCredentials | null {
  try {
    return JSON.parse(readFileSync(credentialsFile, 'utf8')) as LocalCredentials;
  } catch {
    return null;
  }
}

async function main() {
  takeLock();
  console.log('Starting local storage (DynamoDB Local, S3 and SQS)…');
  let servers: Awaited<ReturnType<typeof startLocalServers>>;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  try {
    servers = await startLocalServers({ dataDir });
  } catch (error) {
    rmSync(lockFile, { force: true });
    fail(String((error as Error).message ?? error));
  }
  const secrets = localSecrets();
  const storeConfig = { ...servers.config, imageMasterKey: secrets.image_master_key };
  const store = createStore(storeConfig);
  // Lets `npm run purge` and other local tools reach this run's servers.
  writeFileSync(runtimeFile, `${JSON.stringify({ store: storeConfig }, null, 2)}\n`, { mode: 0o600 });
  const credentials = await seedLocal(store, baseUrl, readPreviousCredentials());
  writeFileSync(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });

  console.log('Loading the analysis models (OCR, faces)…');
  // The analysis runs on worker threads, one per two cores (ANALYSIS_CONCURRENCY), so the HTTP
  // thread keeps answering while the models run (synchronously, on the thread that calls them;
  // each session uses two cores' threads). IDV_ANALYSIS_WORKERS=0 keeps it in this process.
  const workers = process.env.IDV_ANALYSIS_WORKERS === '0' ? null : createWorkerAnalyzer();
  if (workers) await workers.ready();
  else await warmUpAnalyzer();
  const analyzer = workers ?? inProcessAnalyzer();

  const appDeps = {
    store,
    baseUrl,
    analyzer,
    urlSigningKey: Buffer.from(secrets.url_signing_key, 'base64'),
    events: webhookEventPublisher(store),
    // Locally, receivers on http://localhost are the norm (never on AWS).
    webhooks: { allowLocalhost: true },
    // IDV_GATEWAY_LIMITS=aws: refuse what API Gateway would (6 MB once base64-encoded).
    gateway: gatewayLimitsFromEnv(),
  };
  const app = createApp(appDeps);
  // The operator console, on the same server under /console.
  mountConsole(app, appDeps, { sessionKey: deriveConsoleSessionKey(appDeps.urlSigningKey) });
  // The webhook worker, in-process: long-polls the local events queue like the Lambda would.
  // At start it re-sends every overdue delivery from the table (the local queue lived in memory,
  // so a restart lost its messages); WEBHOOKS_RETRY_MINUTE_MS=200 shrinks the retry schedule.
  const webhookWorker = startWebhookWorker(store, { allowLocalhost: true });
  // Unused direct uploads expire as the staging bucket's lifecycle rule makes them on AWS.
  const uploadPurge = setInterval(
    () => purgeExpiredUploads(store).catch((error) => console.error(`Upload purge failed: ${error}`)),
    10 * 60_000,
  );
  const server = startNodeServer({ fetch: app.fetch, port, hostname: '0.0.0.0' });
  server.on('error', async (error: NodeJS.ErrnoException) => {
    await servers.stop();
    rmSync(lockFile, { force: true });
    fail(error.code === 'EADDRINUSE' ? `Port ${port} is in use. Set PORT to another port.` : String(error));
  });
  server.on('listening', () => {
    console.log(`
Identity verification service running.

  API          ${baseUrl}
  API docs     ${baseUrl}/docs   (OpenAPI: ${baseUrl}/openapi.json)
  Test key     ${credentials.test_key}
  Live key     ${credentials.live_key}
  Console      ${baseUrl}/console
    owner      ${credentials.console.email} / ${credentials.console.password}
    operator   ${credentials.operator?.email} / ${credentials.operator?.password}   (${baseUrl}/console/operator)

  Try:  curl -H "Authorization: Bearer ${credentials.test_key}" ${baseUrl}/v1/logs
${appDeps.gateway ? '\n  API Gateway limits simulated (IDV_GATEWAY_LIMITS=aws): large images go through /v1/uploads.\n' : ''}
Credentials are also in ${credentialsFile}. Data lives in ${dataDir}. Ctrl-C stops everything.
`);
  });

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    server.close();
    clearInterval(uploadPurge);
    await webhookWorker.stop();
    await workers?.close();
    await servers.stop();
    rmSync(runtimeFile, { force: true });
    rmSync(lockFile, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error) => {
  rmSync(lockFile, { force: true });
  fail(`Start failed: ${error?.stack ?? error}`);
});
