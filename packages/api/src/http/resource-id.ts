import { z } from '@hono/zod-openapi';
import { hasPrefix, ID_BODY_MAX_LENGTH, type IdPrefix, idPattern } from '@idv/core';

/**
 * The one check of every id taken from a path (`/v1/verifications/{id}`, `/v1/webhooks/{id}`…):
 * prefix, alphabet and a length bound, before anything reads the store. A path id of another
 * shape names nothing, so it answers 404 `not_found` (the app's validation hook sends every
 * failed path parameter there), never a store error.
 */
export function resourceIdParam(prefix: IdPrefix, what: string, example: string) {
  return z.object({
    id: z
      .string()
      // The pattern is anchored and linear, so even a 10,000-character id is refused at once.
      .max(prefix.length + 1 + ID_BODY_MAX_LENGTH, `must be ${what} id (${prefix}_…)`)
      .regex(idPattern(prefix), `must be ${what} id (${prefix}_…)`)
      .openapi({ param: { name: 'id', in: 'path' }, example }),
  });
}

/** The same check for routes outside the OpenAPI document (the capture page, auth middleware). */
export function isResourceId(id: string | undefined, prefix: IdPrefix): id is string {
  return (
    typeof id === 'string' && id.length <= prefix.length + 1 + ID_BODY_MAX_LENGTH && hasPrefix(id, prefix)
  );
}
