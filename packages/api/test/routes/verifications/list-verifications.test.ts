import { describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  expectError,
  expectWrongCredentialsRefused,
  seedVerification,
  testApp,
} from '../../support.ts';

describe('GET /v1/verifications (listVerifications)', () => {
  const app = testApp();

  it('lists every verification of the organisation, page by page, without repeats', async () => {
    const org = await createTestOrganisation();
    const saved = [];
    for (let i = 0; i < 3; i++) saved.push(await seedVerification(org, 'test'));
    const first = await (await app.request('/v1/verifications?limit=2', bearer(org.testKey))).json();
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await (
      await app.request(`/v1/verifications?limit=2&cursor=${first.next_cursor}`, bearer(org.testKey))
    ).json();
    expect(second.data).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    const ids = [...first.data, ...second.data].map((v: { id: string }) => v.id);
    expect(ids.sort()).toEqual(saved.map((v) => v.id).sort());
  });

  it('keeps organisations and modes apart', async () => {
    const org = await createTestOrganisation();
    const test = await seedVerification(org, 'test');
    const live = await seedVerification(org, 'live');
    const ids = async (key: string) =>
      (await (await app.request('/v1/verifications', bearer(key))).json()).data.map(
        (v: { id: string }) => v.id,
      );
    expect(await ids(org.testKey)).toEqual([test.id]);
    expect(await ids(org.liveKey)).toEqual([live.id]);
    expect(await ids((await createTestOrganisation()).testKey)).toEqual([]);
  });

  it('400 for a bad limit or a forged cursor', async () => {
    const org = await createTestOrganisation();
    for (const query of ['limit=0', 'limit=101', 'limit=abc']) {
      await expectError(
        await app.request(`/v1/verifications?${query}`, bearer(org.testKey)),
        400,
        'invalid_request',
      );
    }
    const forged = Buffer.from(JSON.stringify({ pk: 'ORG#org_other', sk: 'x' })).toString('base64url');
    await expectError(
      await app.request(`/v1/verifications?cursor=${forged}`, bearer(org.testKey)),
      400,
      'invalid_request',
    );
  });

  it('refuses every wrong credential with 401 unauthorized', async () => {
    await expectWrongCredentialsRefused((headers) => app.request('/v1/verifications', { headers }));
  });
});
