import { SECRET_KEY_AUTH } from '../../http/auth.ts';

/** The direct-upload operation with a secret key (a session's has its own, client-token route). */
export const UPLOADS = { tags: ['Uploads'], ...SECRET_KEY_AUTH };
