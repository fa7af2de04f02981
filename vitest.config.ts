import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (pure code and models, no servers) and `integration` (real local
 * DynamoDB/S3/SQS started once per run by test/global-setup.ts).
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts'],
          // The store's and the API's tests need the local servers: they run with the integration project.
          exclude: ['packages/store/test/**', 'packages/api/test/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            'test/**/*.test.ts',
            'packages/store/test/**/*.test.ts',
            'packages/api/test/**/*.test.ts',
          ],
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
