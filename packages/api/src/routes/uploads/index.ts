import type { ApiApp } from '../../http/env.ts';
import { registerCreateUploads } from './create-uploads.ts';
import { VerifyUploadsBody } from './schemas.ts';

/** Direct uploads: presigned targets for images too large to travel through the API gateway. */
export function registerUploadRoutes(app: ApiApp) {
  // The verify's JSON body is parsed by its handler (the same route also takes multipart), so
  // its schema is registered here and referenced by the verify routes.
  app.openAPIRegistry.register('VerifyUploadsRequest', VerifyUploadsBody);
  registerCreateUploads(app);
}
