/// <reference path="./.sst/platform/config.d.ts" />

/**
 * AWS deployment: one stage per branch (`npx sst deploy --stage <branch>`). The resources
 * here are the ones the local stack mirrors (scripts/start.ts): the table with its index and
 * TTL, the image bucket, the event queue with its dead-letter queue, and the API function.
 */
export default $config({
  app(input) {
    return {
      name: 'idv',
      home: 'aws',
      // Production keeps its data if the stage is removed; branch stages clean up after themselves.
      removal: input?.stage === 'production' ? 'retain' : 'remove',
      protect: input?.stage === 'production',
    };
  },
  async run() {
    const { createStorage } = await import('./infra/storage');
    const { createApi } = await import('./infra/api');
    const { createWebhooks } = await import('./infra/webhooks');
    const { createAnalyzer } = await import('./infra/analyzer');
    // Secrets: `npx sst secret set ImageMasterKey $(openssl rand -base64 32)`, same for UrlSigningKey.
    const secrets = {
      imageMasterKey: new sst.Secret('ImageMasterKey'),
      urlSigningKey: new sst.Secret('UrlSigningKey'),
    };
    const storage = createStorage();
    const analyzer = await createAnalyzer(storage, secrets.imageMasterKey);
    const api = createApi(storage, analyzer, secrets);
    createWebhooks(storage, { IMAGE_MASTER_KEY: secrets.imageMasterKey.value });
    return { api: api.url };
  },
});
