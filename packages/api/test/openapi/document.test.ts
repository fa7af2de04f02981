import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/http/api-error.ts';
import { openApiDocument, operations } from './contract-app.ts';

describe('/openapi.json', () => {
  it('lists every error code the API answers with as the enum of error.code', async () => {
    const doc = await openApiDocument();
    const error = doc.components.schemas.Error as {
      properties: { error: { properties: { code: { enum: string[] } } } };
    };
    expect(error.properties.error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_STATUS).sort());
  });

  it('describes the verification.completed webhook: its headers and the event with the Verification', async () => {
    const doc = await openApiDocument();
    const hook = doc.webhooks['verification.completed']?.post;
    expect(hook).toBeDefined();
    const headers = (hook?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers).toEqual(
      expect.arrayContaining(['service-signature', 'service-event', 'service-delivery', 'content-type']),
    );
    expect(hook?.requestBody?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/VerificationCompletedEvent',
    });
    const event = doc.components.schemas.VerificationCompletedEvent as {
      required: string[];
      properties: { data: unknown; type: { enum?: string[] } };
    };
    expect(event.required).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'data']));
    expect(event.properties.type.enum).toEqual(['verification.completed']);
    expect(JSON.stringify(event.properties.data)).toContain('#/components/schemas/Verification');
    expect(JSON.stringify(event.properties.data)).toContain('app_id');
  });

  it('documents retry-after and the rate-limit headers on every 429', async () => {
    const doc = await openApiDocument();
    const limited = operations(doc).filter(({ op }) => op.responses['429']);
    expect(limited.length).toBeGreaterThan(3);
    for (const { op } of limited) {
      expect(Object.keys(op.responses['429']?.headers ?? {}).sort()).toEqual([
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ]);
    }
  });

  it('documents the rate-limit headers on the success of every rate-limited operation', async () => {
    const doc = await openApiDocument();
    for (const { path, method, op } of operations(doc).filter(({ op }) => op.responses['429'])) {
      for (const [status, response] of Object.entries(op.responses).filter(([s]) => s.startsWith('2'))) {
        expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).toEqual(
          expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
        );
      }
    }
  });

  it('gives every operation a curl and a Node sample with its own path', async () => {
    const doc = await openApiDocument();
    for (const { path, method, op } of operations(doc)) {
      const samples = op['x-codeSamples'] ?? [];
      expect(samples.map((s) => s.label)).toEqual(['curl', 'Node (@idv/client)']);
      expect(samples[0]?.source).toContain(`curl -X ${method.toUpperCase()} 'http://localhost:8787/`);
      expect(samples[1]?.source).toContain(`idv.${method.toUpperCase()}('${path}'`);
      const scheme = Object.keys((op.security?.[0] ?? {}) as object)[0];
      if (scheme === 'SecretKey')
        expect(samples[0]?.source).toContain('Authorization: Bearer $IDV_SECRET_KEY');
      if (scheme === 'ClientToken')
        expect(samples[1]?.source).toContain('clientToken: process.env.IDV_CLIENT_TOKEN');
      if (!scheme) expect(samples[0]?.source).not.toContain('Authorization');
    }
    const verify = doc.paths['/v1/verify']?.post?.['x-codeSamples'] ?? [];
    expect(verify[0]?.source).toContain('-F front=@front.jpg');
    expect(verify[1]?.source).toContain("front: new Blob([await readFile('front.jpg')]");
  });
});
