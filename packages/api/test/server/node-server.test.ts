import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeServer } from '../../src/server/node-server.ts';
import { contractApp } from '../openapi/contract-app.ts';

let server: Server;
let port: number;

beforeAll(async () => {
  server = startNodeServer({ fetch: contractApp().fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Sends raw bytes on a new connection and reads the whole answer (the server closes it). */
function rawRequest(bytes: Buffer | string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
    socket.end(bytes);
  });
}

const envelope = { error: { code: 'invalid_request', message: expect.any(String) } };

describe("the Node server's own refusals answer in the envelope", () => {
  it('passes ordinary requests to the app', async () => {
    const res = await rawRequest('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.body).toContain('{"ok":true}');
  });

  it('serves an HTTP/1.0 request without a Host header (the listening address stands for it)', async () => {
    const res = await rawRequest('GET /health HTTP/1.0\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.body).toContain('{"ok":true}');
  });

  it.each([
    ['a space in the path', Buffer.from('GET /v1/verifi cations HTTP/1.1\r\nHost: localhost\r\n\r\n')],
    [
      'raw UTF-8 in the path',
      Buffer.from('GET /v1/vérifications HTTP/1.1\r\nHost: localhost\r\n\r\n', 'utf8'),
    ],
    ['an unknown method', Buffer.from('FROB /v1/verifications HTTP/1.1\r\nHost: localhost\r\n\r\n')],
    ['a bad request line', Buffer.from('hello there\r\n\r\n')],
    ['a bad header line', Buffer.from('GET /health HTTP/1.1\r\nHost localhost\r\n\r\n')],
  ])('%s: 400 invalid_request', async (_name, bytes) => {
    const res = await rawRequest(bytes);
    expect(res.status).toBe(400);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(res.headers).toMatch(/connection: close/i);
    expect(JSON.parse(res.body)).toEqual(envelope);
  });

  it.each([
    ['an invalid Host header', 'GET /health HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'],
    ['an invalid absolute URL', 'GET http://[bad/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
  ])('%s (parsed, but no web Request can be built): 400 invalid_request', async (_name, bytes) => {
    const res = await rawRequest(bytes);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(envelope);
  });

  it('CONNECT: 405 method_not_allowed', async () => {
    const res = await rawRequest('CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80\r\n\r\n');
    expect(res.status).toBe(405);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'method_not_allowed', message: expect.any(String) },
    });
  });

  it('headers over the size limit: 431 invalid_request', async () => {
    const res = await rawRequest(
      `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'invalid_request', message: 'request headers too large (at most 16 KiB)' },
    });
  });
});
