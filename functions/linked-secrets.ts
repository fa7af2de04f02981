/**
 * On AWS the secrets are SST secrets linked to each function (`sst secret set`, read through
 * `Resource`); locally and in tests they are plain environment variables. This copies the linked
 * values into the variables the packages already read, before any of them is configured, so the
 * packages never depend on SST.
 */
import { Resource } from 'sst';

/** SST secret name → the environment variable the packages read. */
export const LINKED_SECRETS = {
  ImageMasterKey: 'IMAGE_MASTER_KEY',
  UrlSigningKey: 'URL_SIGNING_KEY',
  // Generated per stage (infra/edge.ts): proves a request came through the CloudFront edge.
  EdgeOriginSecret: 'EDGE_ORIGIN_SECRET',
} as const;

export function applyLinkedSecrets(env: NodeJS.ProcessEnv = process.env): void {
  // `in` never throws, unlike reading a name that is not linked.
  const linked = Resource as unknown as Record<string, { value?: unknown } | undefined>;
  for (const [name, variable] of Object.entries(LINKED_SECRETS)) {
    if (!(name in linked)) continue;
    const value = linked[name]?.value;
    if (typeof value === 'string' && value) env[variable] = value;
  }
}
