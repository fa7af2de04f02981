/**
 * The single DynamoDB table's shape, shared by the local bootstrap and the SST definition
 * (`infra/storage.ts`) so the two cannot drift. Plain data: no imports.
 *
 * Items are addressed by `pk`/`sk`. `gsi1` lists things per owner in time order
 * (verifications of an organisation and mode, keys of an organisation, ...). `expires_at`
 * (epoch seconds) is the TTL attribute: DynamoDB deletes expired items by itself, which is
 * how request logs (90 days), rate-limit windows and idempotency records go away.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  indexes: {
    gsi1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  },
} as const;
