import { describe, expect, it } from 'vitest';

describe('functions/linked-secrets.ts', () => {
  it('copies SST-linked secrets into the variables the packages read, and nothing unlinked', async () => {
    // What SST puts in a function's environment for a linked secret (and what infra/analyzer.ts
    // writes by hand for the container-image analyzer).
    process.env.SST_RESOURCE_App = JSON.stringify({ name: 'idv', stage: 'test' });
    process.env.SST_RESOURCE_ImageMasterKey = JSON.stringify({ type: 'sst.sst.Secret', value: 'bGlua2Vk' });
    const { applyLinkedSecrets } = await import('../../functions/linked-secrets.ts');
    const env: NodeJS.ProcessEnv = { URL_SIGNING_KEY: 'from-the-environment' };
    applyLinkedSecrets(env);
    expect(env.IMAGE_MASTER_KEY).toBe('bGlua2Vk');
    // Not linked here: the local variable stays.
    expect(env.URL_SIGNING_KEY).toBe('from-the-environment');
  });
});
