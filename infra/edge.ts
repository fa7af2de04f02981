import { readFileSync } from 'node:fs';
import { stageDomain, stageName, TIMEOUTS } from './stage';

/** CloudFront's managed policies (the same IDs in every account). */
const MANAGED = {
  /** Managed-CachingDisabled: nothing is cached, nothing extra in the cache key. */
  cachingDisabled: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
  /**
   * Managed-AllViewerExceptHostHeader: every viewer header (Authorization and Idempotency-Key
   * included, since caching is off), cookie and query string, but not Host, which API Gateway
   * needs to be its own execute-api name.
   */
  allViewerExceptHost: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
};

/**
 * The public front of the API: a CloudFront distribution before the HTTP API, whose job is to
 * answer a body too large for the gateway with the spec's 413 envelope
 * (infra/edge/body-limit.js, a viewer-request CloudFront Function) instead of the gateway's own
 * error. Everything else passes through uncached: every method, header, cookie and query string;
 * no compression (the API's answers are passed on as sent).
 *
 * The edge function also adds the viewer's address, which the API trusts beside a secret origin
 * header only CloudFront sends (functions/edge-viewer.ts): behind CloudFront the gateway's
 * `sourceIp` is CloudFront's, and per-IP rate limits need the caller's.
 *
 * The stage's public address is this distribution's: its custom domain when the stage has one
 * (the certificate and Route 53 records are made here, no longer on the gateway), else its
 * cloudfront.net name. The gateway's execute-api URL still answers, without the edge check; it
 * is not published anywhere.
 */
export async function createEdge(api: sst.aws.ApiGatewayV2) {
  // Loaded when the stack runs, like docker-build in infra/analyzer.ts.
  const random = await import('@pulumi/random');
  // Proves to the API that a request came through this distribution, so that it may trust the
  // viewer address the edge function adds (functions/edge-viewer.ts). Kept in the stack's
  // encrypted state; linked to the API function like the SST secrets.
  const originSecret = new random.RandomPassword('EdgeOriginSecretValue', { length: 40, special: false });
  const originSecretLink = new sst.Linkable('EdgeOriginSecret', {
    properties: { value: originSecret.result },
  });

  const bodyLimit = new aws.cloudfront.Function('ApiBodyLimit', {
    name: stageName('api-body-limit'),
    runtime: 'cloudfront-js-2.0',
    comment: '413 in the API envelope for bodies past the API gateway cap',
    // Read when the stack runs (SST runs from the repository root), so the deployed code is the
    // very file test/lambda/edge-body-limit.test.ts runs.
    code: readFileSync('infra/edge/body-limit.js', 'utf8'),
    publish: true,
  });

  const domain = stageDomain();
  const originId = 'api';
  const cdn = new sst.aws.Cdn('ApiEdge', {
    comment: `idv ${$app.stage}: the API, with the gateway's body limit answered at the edge`,
    ...(domain ? { domain } : {}),
    origins: [
      {
        originId,
        domainName: api.url.apply((url) => new URL(url).host),
        customOriginConfig: {
          httpPort: 80,
          httpsPort: 443,
          originProtocolPolicy: 'https-only',
          originSslProtocols: ['TLSv1.2'],
          // CloudFront's ceiling without a quota increase; above the gateway's 30 s, so the
          // gateway (and below it the function and the analysis) decide what a slow call gets.
          originReadTimeout: TIMEOUTS.edgeOriginReadSeconds,
          originKeepaliveTimeout: 5,
        },
        customHeaders: [{ name: 'x-idv-edge-secret', value: originSecret.result }],
      },
    ],
    defaultCacheBehavior: {
      targetOriginId: originId,
      viewerProtocolPolicy: 'https-only',
      allowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'POST', 'PATCH', 'DELETE'],
      cachedMethods: ['GET', 'HEAD'],
      compress: false,
      cachePolicyId: MANAGED.cachingDisabled,
      originRequestPolicyId: MANAGED.allViewerExceptHost,
      functionAssociations: [{ eventType: 'viewer-request', functionArn: bodyLimit.arn }],
    },
  });
  // The custom domain's address when there is one, else the distribution's; no trailing slash.
  const url: $util.Input<string> = domain ? `https://${domain}` : cdn.url;
  return { url, cdn, bodyLimit, originSecret: originSecretLink };
}
