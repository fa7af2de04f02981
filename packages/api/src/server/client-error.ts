import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../http/api-error.ts';

/**
 * Requests that Node's HTTP parser refuses never reach the app: a bad request line, a space or
 * raw UTF-8 in the target, an unknown method, headers over `http.maxHeaderSize` (16 KiB by
 * default), a request not received in time. Node would answer those with an empty 400/431/408;
 * this answers them in the spec's envelope instead, keeping Node's status.
 *
 * The status follows HTTP (431 for oversized headers, 408 for a request never finished), the
 * code is `invalid_request`: the client sent something the server could not read as a request.
 */
export interface ClientErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
}

export function clientErrorAnswer(error: NodeJS.ErrnoException): ClientErrorAnswer {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'invalid_request', message: 'request headers too large (at most 16 KiB)' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'invalid_request', message: 'the request was not received in time' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, code: 'invalid_request', message: 'unknown HTTP method' };
    case 'HPE_INVALID_URL':
      return {
        status: 400,
        code: 'invalid_request',
        message: 'malformed request target (spaces and non-ASCII characters must be percent-encoded)',
      };
    default:
      return { status: 400, code: 'invalid_request', message: 'malformed HTTP request' };
  }
}

/** The raw HTTP/1.1 response: the envelope, then the connection is closed (the stream is unusable). */
export function clientErrorResponse(answer: ClientErrorAnswer): string {
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** The server's 'clientError' listener (replaces Node's default, which answers with no body). */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: nothing to answer on a reset or closed socket, or once a response
  // to this connection has started (its headers are on the wire).
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(clientErrorAnswer(error)));
}

/**
 * The adaptor's error handler: the request was parsed, but no web Request could be built from it
 * (missing or invalid Host header, an invalid absolute URL, `OPTIONS *`, a backslash in the
 * path). The app never ran, so the envelope is made here; anything else is an internal error.
 */
export function unreadableRequestResponse(error: unknown): Response {
  const readable = error instanceof Error && error.name === 'RequestError';
  const body = readable
    ? { error: { code: 'invalid_request', message: `unreadable request: ${error.message}` } }
    : { error: { code: 'internal_error', message: 'an unexpected error occurred; try again later' } };
  if (!readable) console.error(JSON.stringify({ level: 'error', error: String(error) }));
  return Response.json(body, { status: readable ? 400 : 500, headers: { connection: 'close' } });
}
