import type { Page, PageResult } from '@idv/store';
import { ApiError } from './api-error.ts';

/** A list's page, or the 400 every list answers for a cursor it did not make. */
export function pageOrBadCursor<T>(result: PageResult<T>): Page<T> {
  if (!result.ok) throw new ApiError('invalid_request', 'cursor: not a cursor returned by this endpoint');
  return result.page;
}
