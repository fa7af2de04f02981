import { ERROR_STATUS } from '@idv/api';

/**
 * Why an error answer is not the spec's envelope, or null when it is: a JSON body of exactly
 * `{"error":{"code","message"}}`, a known code whose status is the one answered.
 */
export function envelopeProblem(status: number, contentType: string | null, text: string): string | null {
  if (!contentType?.includes('application/json')) return `content-type ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  const error = (body as { error?: Record<string, unknown> })?.error;
  if (!error || Object.keys(body as object).length !== 1) return 'not {"error":…} alone';
  const keys = Object.keys(error).sort().join(',');
  if (keys !== 'code,message') return `error has fields ${keys}`;
  if (typeof error.code !== 'string' || typeof error.message !== 'string' || !error.message)
    return 'bad code/message';
  const expected = ERROR_STATUS[error.code as keyof typeof ERROR_STATUS];
  if (expected === undefined) return `unknown code ${error.code}`;
  if (expected !== status) return `code ${error.code} is ${expected}, answered ${status}`;
  return null;
}
