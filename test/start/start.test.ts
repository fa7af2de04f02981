import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdvClient } from '@idv/client';
import { freePort } from '@idv/store/local';
import { afterAll, describe, expect, it } from 'vitest';
import { followStartedService } from '../support/started-service.ts';

const started: ChildProcess[] = [];

/** Runs `scripts/start.ts` as `npm start` does, in its own data folder and port. */
function startService(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return followStartedService(child);
}

function stop(child: ChildProcess) {
  child.kill('SIGINT');
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-start-'));
  afterAll(async () => {
    // A failed assertion must not leave a service (and its Java child) running.
    for (const child of started) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('boots everything, prints and writes credentials, refuses a second start, stops cleanly, and keeps keys across restarts', async () => {
    const port = await freePort();
    const first = startService(dataDir, port);
    await first.ready;
    const credentials = JSON.parse(readFileSync(join(dataDir, 'local.json'), 'utf8'));
    expect(credentials).toMatchObject({
      base_url: `http://localhost:${port}`,
      test_key: expect.stringMatching(/^vn_test_/),
      live_key: expect.stringMatching(/^vn_live_/),
      console: { email: expect.any(String), password: expect.any(String) },
    });
    expect(first.output()).toContain(credentials.test_key);
    expect(first.output()).toContain(credentials.live_key);
    expect(first.output()).toContain(credentials.console.password);

    // The published client, over the network.
    const idv = createIdvClient({ baseUrl: credentials.base_url, secretKey: credentials.test_key });
    const ok = await idv.GET('/v1/logs');
    expect(ok.response.status).toBe(200);
    const bad = await createIdvClient({ baseUrl: credentials.base_url, secretKey: 'vn_test_wrong' }).GET(
      '/v1/logs',
    );
    expect(bad.response.status).toBe(401);
    expect(bad.error).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });

    const second = startService(dataDir, await freePort());
    expect((await second.exited).code).toBe(1);
    expect(second.output()).toContain('already running');

    stop(first.child);
    expect((await first.exited).code).toBe(0);

    // Restart on the same data: the same keys still work.
    const third = startService(dataDir, port);
    await third.ready;
    const again = JSON.parse(readFileSync(join(dataDir, 'local.json'), 'utf8'));
    expect(again.test_key).toBe(credentials.test_key);
    const stillOk = await idv.GET('/v1/logs');
    expect(stillOk.response.status).toBe(200);
    expect(stillOk.data?.data.length).toBeGreaterThanOrEqual(1); // the call made before the restart
    stop(third.child);
    expect((await third.exited).code).toBe(0);
  }, 120_000);
});
