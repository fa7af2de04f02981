/**
 * `npm start`: the whole service on this machine, with no cloud account, Docker or network.
 * Starts the local AWS stand-ins (DynamoDB Local, fauxqs for S3 and SQS), creates what is
 * missing, seeds an organisation on first start, serves the API and prints how to use it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from '@idv/api';
import { createStore } from '@idv/store';
import { type LocalCredentials, seedLocal, startLocalServers } from '@idv/store/local';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const port = Number(process.env.PORT ?? 8787);
const baseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
const lockFile = resolve(dataDir, 'start.lock');
const credentialsFile = resolve(dataDir, 'local.json');

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
  try {
    servers = await startLocalServers({ dataDir });
  } catch (error) {
    rmSync(lockFile, { force: true });
    fail(String((error as Error).message ?? error));
  }
  const store = createStore(servers.config);
  const credentials = await seedLocal(store, baseUrl, readPreviousCredentials());
  writeFileSync(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });

  const app = createApp({ store, baseUrl });
  const server = serve({ fetch: app.fetch, port, hostname: '0.0.0.0' });
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
  Console      ${credentials.console.email} / ${credentials.console.password}

  Try:  curl -H "Authorization: Bearer ${credentials.test_key}" ${baseUrl}/v1/logs

Credentials are also in ${credentialsFile}. Data lives in ${dataDir}. Ctrl-C stops everything.
`);
  });

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    server.close();
    await servers.stop();
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
