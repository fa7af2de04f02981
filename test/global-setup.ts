import { randomBytes } from 'node:crypto';
import type { StoreConfig } from '@idv/store';
import { startLocalServers } from '@idv/store/local';
import type { TestProject } from 'vitest/node';

/**
 * Starts the real local servers (DynamoDB Local, fauxqs) once per test run, on free ports,
 * in memory, with names unique to the run. Test files get the config through inject().
 */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const servers = await startLocalServers({ prefix: `idvtest${Date.now().toString(36)}` });
  project.provide('storeConfig', { ...servers.config, imageMasterKey: randomBytes(32).toString('base64') });
  return async () => {
    await servers.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    storeConfig: StoreConfig;
  }
}
