import type { Storage } from './storage';

/**
 * The retention purge (functions/purge.ts), daily at 03:15 UTC: deletes live images past their
 * organisation's retention period, and direct uploads no verification used (before the staging
 * bucket's one-day lifecycle rule would). It needs the table and the buckets only (objects are deleted
 * without being decrypted). 15 minutes is Lambda's ceiling; a run that does not finish leaves
 * the rest due, and the next day's run picks it up.
 */
export function createPurge(storage: Storage) {
  return new sst.aws.CronV2('ImagePurge', {
    schedule: 'cron(15 3 * * ? *)',
    function: {
      handler: 'functions/purge.handler',
      runtime: 'nodejs22.x',
      architecture: 'arm64',
      memory: '512 MB',
      timeout: '15 minutes',
      link: [storage.table, storage.bucket, storage.uploads],
      environment: {
        TABLE_NAME: storage.table.name,
        BUCKET_NAME: storage.bucket.name,
        UPLOADS_BUCKET_NAME: storage.uploads.name,
      },
    },
  });
}
