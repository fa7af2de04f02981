import type { ApiApp } from '../../http/env.ts';
import { registerCreateVerification } from './create-verification.ts';
import { registerGetVerification } from './get-verification.ts';
import { registerGetVerificationImage } from './get-verification-image.ts';
import { registerListVerifications } from './list-verifications.ts';
import { registerViewImage } from './view-image.ts';

/** Verifications: create, list, read, an image's short-lived URL, and the image behind it. */
export function registerVerificationRoutes(app: ApiApp) {
  registerCreateVerification(app);
  registerListVerifications(app);
  registerGetVerification(app);
  registerGetVerificationImage(app);
  registerViewImage(app);
}
