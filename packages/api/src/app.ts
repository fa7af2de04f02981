import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps } from './deps.ts';
import { registerSecuritySchemes } from './http/auth.ts';
import type { AppEnv } from './http/env.ts';
import { describeZodError, errorResponse, handleError } from './http/errors.ts';
import { gatewayLimit } from './http/gateway-limits.ts';
import { notFoundHandler } from './http/not-found.ts';
import { newRequestId, requestLog } from './http/request-log.ts';
import { registerContract } from './openapi/document.ts';
import { registerCaptureRoutes } from './routes/capture/index.ts';
import { registerLogRoutes } from './routes/logs/index.ts';
import { registerSessionRoutes } from './routes/sessions/index.ts';
import { registerUploadRoutes } from './routes/uploads/index.ts';
import { registerVerificationRoutes } from './routes/verifications/index.ts';
import { registerWebhookRoutes } from './routes/webhooks/index.ts';

export { API_VERSION } from './openapi/document.ts';

/** Builds the whole HTTP API. The same app runs under Node locally and on AWS Lambda. */
export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({
    // Validation failures use the spec's envelope and name the bad field.
    defaultHook: (result, c) => {
      if (!result.success) {
        // A path that names nothing (a malformed id, an unknown image kind) is not found,
        // the same answer as a well-formed id that does not exist.
        if (result.target === 'param') {
          return errorResponse(c, 'not_found', describeZodError(result.error, result.target));
        }
        return errorResponse(c, 'invalid_request', describeZodError(result.error, result.target));
      }
    },
  });

  // The services reach every middleware and handler through the context, set once here.
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', newRequestId());
    c.set('startedAt', performance.now());
    await next();
    c.header('x-request-id', c.get('requestId'));
  });
  // Before anything reads the body: the gateway would refuse it before the function ran.
  if (deps.gateway) app.use('*', gatewayLimit(deps.gateway));
  app.onError(handleError);
  app.notFound(notFoundHandler(() => app.routes));
  registerSecuritySchemes(app);

  // Every /v1 call is logged once authenticated; each route names its own authentication.
  app.use('/v1/*', requestLog);
  registerLogRoutes(app);
  registerUploadRoutes(app);
  registerVerificationRoutes(app);
  registerWebhookRoutes(app);
  registerSessionRoutes(app);
  registerCaptureRoutes(app);

  registerContract(app, deps.baseUrl);
  app.get('/health', (c) => c.json({ ok: true }));

  return app;
}

export type App = ReturnType<typeof createApp>;
