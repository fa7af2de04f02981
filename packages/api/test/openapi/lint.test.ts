import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from './contract-app.ts';

const root = resolve(import.meta.dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'idv-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

describe('the OpenAPI document under `redocly lint`', () => {
  it('has no error and no warning with the repository rules (redocly.yaml)', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(await openApiDocument()));
    // The CLI exits non-zero when it finds errors; the JSON report is on stdout either way.
    const run = await promisify(execFile)(
      join(root, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json'],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(run.stdout) as { problems: LintProblem[] };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}`);
    expect(problems).toEqual([]);
  });
});
