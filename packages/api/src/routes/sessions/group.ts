import { SECRET_KEY_AUTH } from '../../http/auth.ts';
import { CLIENT_TOKEN_AUTH } from '../../http/client-token-auth.ts';

/**
 * The two groups of session operations, each with its tag and its authentication (as route
 * middleware): the customer's server opens and reads sessions with a secret key; the end
 * user's browser works inside one session with its client token.
 */
export const SESSIONS_SERVER = { tags: ['Sessions'], ...SECRET_KEY_AUTH };
export const SESSIONS_BROWSER = { tags: ['Sessions'], ...CLIENT_TOKEN_AUTH };
