import { describe, expect, it } from 'vitest';
import { testApp } from '../support.ts';

type Operation = { operationId?: string; security?: unknown[] };

describe('the operations of /openapi.json', () => {
  it('names every operation with a unique camelCase operationId', async () => {
    const doc = await (await testApp().request('/openapi.json')).json();
    const operations = Object.values(doc.paths as Record<string, Record<string, Operation>>).flatMap((path) =>
      Object.values(path),
    );
    expect(operations.length).toBeGreaterThanOrEqual(10);
    const ids = operations.map((op) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("states the credential of every operation: the secret key, a session's client token, or none at all", async () => {
    const doc = await (await testApp().request('/openapi.json')).json();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(methods)) {
        const clientToken = /^\/v1\/sessions\/\{id\}\/(uploads|verify|precheck|mrz)$/.test(path);
        const expected = path.startsWith('/v1/image-content/')
          ? []
          : clientToken
            ? [{ ClientToken: [] }]
            : [{ SecretKey: [] }];
        expect(op.security, `${method} ${path}`).toEqual(expected);
      }
    }
  });
});
