import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PageResult } from '../../src/pagination.ts';
import type { RequestLogEntry } from '../../src/repos/request-logs.ts';
import { testStore } from '../support.ts';

function pageOf<T>(result: PageResult<T>) {
  if (!result.ok) throw new Error(`expected a page, got ${result.reason}`);
  return result.page;
}

const anOrg = () => `org_${randomUUID().replaceAll('-', '')}`;

function logEntry(n: number, status: number, mode: 'test' | 'live' = 'test'): RequestLogEntry {
  return {
    id: `req_${n}`,
    method: 'GET',
    route: '/v1/verifications',
    status,
    error_code: null,
    key: 'key_1',
    mode,
    duration_ms: 3,
    resource_id: null,
    created_at: new Date(Date.now() - (100 - n) * 1000).toISOString(),
  };
}

describe('repositories that list (DynamoDB Local)', () => {
  it('audit: pages newest first; a cursor of another organisation or a garbled one is invalid_cursor', async () => {
    const store = testStore();
    const [mine, theirs] = [anOrg(), anOrg()];
    for (let n = 0; n < 3; n++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, n));
      await store.audit.record(
        { org_id: mine, action: `a${n}`, actor: 'system', resource_id: null, details: {} },
        at,
      );
      await store.audit.record(
        { org_id: theirs, action: `b${n}`, actor: 'system', resource_id: null, details: {} },
        at,
      );
    }
    const first = pageOf(await store.audit.list(mine, 2));
    expect(first.data.map((e) => e.action)).toEqual(['a2', 'a1']);
    const second = pageOf(await store.audit.list(mine, 2, first.next_cursor ?? ''));
    expect(second).toMatchObject({ data: [{ action: 'a0', org_id: mine }], next_cursor: null });

    const foreign = pageOf(await store.audit.list(theirs, 1)).next_cursor ?? '';
    expect(await store.audit.list(mine, 2, foreign)).toEqual({ ok: false, reason: 'invalid_cursor' });
    expect(await store.audit.list(mine, 2, '%%%')).toEqual({ ok: false, reason: 'invalid_cursor' });
  });

  it('request logs: filters fill the page, the cursor continues it, another mode refuses it', async () => {
    const store = testStore();
    const org = anOrg();
    for (let n = 0; n < 6; n++) await store.requestLogs.record(org, logEntry(n, n % 2 ? 400 : 200));
    await store.requestLogs.record(org, logEntry(50, 200, 'live'));

    const first = pageOf(await store.requestLogs.list({ orgId: org, mode: 'test', limit: 2, status: 200 }));
    expect(first.data.map((e) => e.id)).toEqual(['req_4', 'req_2']);
    const rest = pageOf(
      await store.requestLogs.list({
        orgId: org,
        mode: 'test',
        limit: 2,
        status: 200,
        cursor: first.next_cursor ?? '',
      }),
    );
    expect(rest).toEqual({ data: [expect.objectContaining({ id: 'req_0' })], next_cursor: null });
    expect(rest.data[0]).not.toHaveProperty('pk');

    const live = await store.requestLogs.list({
      orgId: org,
      mode: 'live',
      limit: 2,
      cursor: first.next_cursor ?? '',
    });
    expect(live).toEqual({ ok: false, reason: 'invalid_cursor' });
  });

  it("webhook endpoints: the organisation's endpoints newest first, none of another's", async () => {
    const store = testStore();
    const [mine, theirs] = [anOrg(), anOrg()];
    const a = await store.webhookEndpoints.create({
      orgId: mine,
      appId: 'app_1',
      url: 'https://a.example',
      description: 'a',
    });
    await new Promise((r) => setTimeout(r, 5));
    const b = await store.webhookEndpoints.create({
      orgId: mine,
      appId: 'app_1',
      url: 'https://b.example',
      description: 'b',
    });
    await store.webhookEndpoints.create({
      orgId: theirs,
      appId: 'app_2',
      url: 'https://c.example',
      description: 'c',
    });
    const listed = await store.webhookEndpoints.listForOrganisation(mine);
    expect(listed.map((e) => e.id)).toEqual([b.id, a.id]);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(listed[0]).not.toHaveProperty('signing_secret_sealed');
  });
});
