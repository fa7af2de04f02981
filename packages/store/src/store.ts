import { type AwsClients, createClients } from './clients.ts';
import type { StoreConfig } from './config.ts';
import { ApiKeyRepository } from './repos/api-keys.ts';
import { OrganisationRepository } from './repos/organisations.ts';
import { RateLimitRepository } from './repos/rate-limits.ts';
import { RequestLogRepository } from './repos/request-logs.ts';
import { UserRepository } from './repos/users.ts';
import type { Table } from './table.ts';

/** Every repository over one set of AWS clients; built once per process. */
export interface Store {
  config: StoreConfig;
  clients: AwsClients;
  organisations: OrganisationRepository;
  apiKeys: ApiKeyRepository;
  users: UserRepository;
  rateLimits: RateLimitRepository;
  requestLogs: RequestLogRepository;
}

export function createStore(config: StoreConfig): Store {
  const clients = createClients(config);
  const table: Table = { doc: clients.doc, name: config.tableName };
  return {
    config,
    clients,
    organisations: new OrganisationRepository(table),
    apiKeys: new ApiKeyRepository(table),
    users: new UserRepository(table),
    rateLimits: new RateLimitRepository(table),
    requestLogs: new RequestLogRepository(table),
  };
}
