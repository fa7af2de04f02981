/// <reference path="./.sst/platform/config.d.ts" />

/**
 * AWS deployment: one stage per branch (`npx sst deploy --stage <branch>`, docs/deploy.md;
 * .github/workflows/stage.yml does it for every branch). The resources here are the ones the
 * local stack mirrors (scripts/start.ts): the table with its index and TTL, the image bucket, the
 * upload staging bucket, the event queue with its dead-letter queue, the API function (behind API
 * Gateway, behind CloudFront), the analyzer, the webhook worker and the daily retention purge.
 */
export default $config({
  app(input) {
    const stage = input?.stage ?? 'unknown';
    return {
      name: 'idv',
      home: 'aws',
      // Production keeps its data if the stage is removed, and `sst remove` refuses to touch it;
      // branch stages clean up after themselves.
      removal: stage === 'production' ? 'retain' : 'remove',
      protect: stage === 'production',
      // Every AWS resource carries its stage and service, for cost allocation (docs/cost.md).
      providers: { aws: { defaultTags: { tags: { stage, service: 'idv' } } } },
    };
  },
  async run() {
    const { createStorage } = await import('./infra/storage');
    const { createApi } = await import('./infra/api');
    const { createWebhooks } = await import('./infra/webhooks');
    const { createAnalyzer } = await import('./infra/analyzer');
    const { createPurge } = await import('./infra/purge');
    // Secrets, per stage: `npx sst secret set ImageMasterKey "$(openssl rand -base64 32)" --stage <stage>`,
    // the same for UrlSigningKey. Linked to the functions that need them, read through `Resource`.
    const secrets = {
      imageMasterKey: new sst.Secret('ImageMasterKey'),
      urlSigningKey: new sst.Secret('UrlSigningKey'),
    };
    const storage = createStorage();
    const analyzer = await createAnalyzer(storage, secrets.imageMasterKey);
    const api = await createApi(storage, analyzer, secrets);
    createWebhooks(storage, secrets.imageMasterKey);
    createPurge(storage);
    // `api` is the public address (CloudFront, the custom domain when set); `gateway` the
    // execute-api URL behind it, for diagnostics only.
    return { api: api.url, gateway: api.gateway.url };
  },
});
