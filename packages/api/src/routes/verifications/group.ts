import { SECRET_KEY_AUTH } from '../../http/auth.ts';

/**
 * What every verification operation shares: its tag in the document and its authentication (a
 * secret key, as route middleware). An operation of the group with another credential
 * spreads its own scheme after this one.
 */
export const VERIFICATIONS = { tags: ['Verifications'], ...SECRET_KEY_AUTH };
