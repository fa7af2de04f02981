import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { testApp } from '../support.ts';

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, version 1.0.0, generated from the routes', async () => {
    const res = await testApp().request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.paths['/v1/logs'].get.responses['200']).toBeDefined();
    expect(doc.paths['/v1/logs'].get.responses['401']).toBeDefined();
    const result = await validate(structuredClone(doc));
    expect('errors' in result ? result.errors : []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
