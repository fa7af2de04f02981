import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { newId } from '@idv/core';
import { type PageResult, queryPage } from '../pagination.ts';
import { stripKeys, type Table } from '../table.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export type Plan = 'entry';

export interface Organisation {
  id: string;
  name: string;
  plan: Plan;
  /** Live keys can be created only once the operator activated live mode. */
  live_enabled: boolean;
  /** How long live images are kept, in days. */
  retention_days: number;
  /** Suspended by the operator (402 account_suspended); usage alone never suspends. */
  suspended: boolean;
  created_at: string;
}

export interface Application {
  id: string;
  org_id: string;
  name: string;
  created_at: string;
}

/** DESIGN.md leaves the default retention open; docs/decisions.md records 30 days. */
export const DEFAULT_RETENTION_DAYS = 30;

const orgKey = (id: string) => ({ pk: `ORG#${id}`, sk: 'ORG' });
/** Every organisation, newest first, for the platform operator's list (gsi1). */
const ALL_ORGS = 'ORGS';
const listKeys = (org: Pick<Organisation, 'id' | 'created_at'>) => ({
  gsi1pk: ALL_ORGS,
  gsi1sk: `${org.created_at}#${org.id}`,
});

export class OrganisationRepository {
  constructor(private readonly table: Table) {}

  /** Creates an organisation with its first application, atomically. */
  async create(input: { name: string; appName: string; liveEnabled?: boolean }, now = new Date()) {
    const { org, app, items } = this.createItems(input, now);
    await this.table.doc.send(new TransactWriteCommand({ TransactItems: items }));
    return { org, app };
  }

  /** The writes that create an organisation and its first application, for a wider transaction. */
  createItems(
    input: { name: string; appName: string; liveEnabled?: boolean },
    now = new Date(),
  ): { org: Organisation; app: Application; items: TransactItem[] } {
    const org: Organisation = {
      id: newId('org'),
      name: input.name,
      plan: 'entry',
      live_enabled: input.liveEnabled ?? false,
      retention_days: DEFAULT_RETENTION_DAYS,
      suspended: false,
      created_at: now.toISOString(),
    };
    const app: Application = {
      id: newId('app'),
      org_id: org.id,
      name: input.appName,
      created_at: org.created_at,
    };
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table.name,
          Item: { ...orgKey(org.id), ...listKeys(org), ...org },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.table.name,
          Item: { pk: `ORG#${org.id}`, sk: `APP#${app.id}`, ...app },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    return { org, app, items };
  }

  /** Every organisation, newest first (the platform operator's list); `invalid_cursor` for a foreign cursor. */
  list(limit: number, cursor?: string): Promise<PageResult<Organisation>> {
    return queryPage(this.table, { index: 'gsi1', partition: ALL_ORGS, limit, cursor }, (item) =>
      stripKeys<Organisation>(item),
    );
  }

  /**
   * Puts an organisation made before the list existed into it (idempotent). The local seed
   * calls it for the organisation it keeps across restarts.
   */
  async ensureListed(org: Organisation): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: orgKey(org.id),
        UpdateExpression: 'SET gsi1pk = :pk, gsi1sk = :sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':pk': listKeys(org).gsi1pk, ':sk': listKeys(org).gsi1sk },
      }),
    );
  }

  /**
   * One flag change for a transaction (the operator's actions, written with their audit entry):
   * applied only when the organisation exists and the flag has the other value, so a repeated
   * action fails its condition instead of writing a second audit entry.
   */
  setFlagItem(id: string, flag: 'live_enabled' | 'suspended', value: boolean): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: orgKey(id),
        UpdateExpression: 'SET #flag = :value',
        ConditionExpression: 'attribute_exists(pk) AND #flag <> :value',
        ExpressionAttributeNames: { '#flag': flag },
        ExpressionAttributeValues: { ':value': value },
      },
    };
  }

  async get(id: string): Promise<Organisation | null> {
    const out = await this.table.doc.send(new GetCommand({ TableName: this.table.name, Key: orgKey(id) }));
    return out.Item ? stripKeys<Organisation>(out.Item) : null;
  }

  async update(
    id: string,
    changes: Partial<Pick<Organisation, 'name' | 'live_enabled' | 'retention_days' | 'suspended'>>,
  ) {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return this.get(id);
    const out = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: orgKey(id),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? stripKeys<Organisation>(out.Attributes) : null;
  }

  /** The applications of an organisation, oldest first (the first is the default one). */
  async listApplications(orgId: string): Promise<Application[]> {
    const out = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :app)',
        ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':app': 'APP#' },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? [])
      .map((item) => stripKeys<Application>(item))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }
}
