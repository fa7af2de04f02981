import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (pure code and models, no servers) and `integration` (real local
 * DynamoDB/S3/SQS started once per run by test/global-setup.ts): the whole-stack journeys in
 * test/, the API's route and middleware tests in packages/api/test/ and the store's repositories
 * in packages/store/test.
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
          // The API's and the store's tests need the local servers: they run in the integration project.
          exclude: ['packages/api/test/**', 'packages/store/test/**', 'packages/console/test/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            'test/**/*.test.ts',
            'packages/api/test/**/*.test.ts',
            'packages/store/test/**/*.test.ts',
            'packages/console/test/**/*.test.ts',
          ],
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
