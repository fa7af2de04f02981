import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryItems } from '../pagination.ts';
import { epochSeconds, type Table } from '../table.ts';

/**
 * An event as recorded before it is sent anywhere (the outbox). `body` is the exact JSON text
 * every delivery sends, so the bytes signed are the same on every attempt.
 */
export interface EventRecord {
  id: string;
  type: string;
  org_id: string;
  app_id: string;
  /** The raw JSON body sent to endpoints. */
  body: string;
  created_at: string;
  /** Set once a delivery exists for every endpoint of the application. */
  fanned_out_at: string | null;
}

/**
 * Events outlive the retry schedule (about 2 h 7 min) with room for a late sweep; their body
 * holds the verification's read fields, so they are not kept longer than that.
 */
export const EVENT_RETENTION_DAYS = 3;

/**
 * Events not yet fanned out sit in one sparse index partition, so a sweep can find the ones a
 * crash or a queue outage left behind. Fanning out removes the index attributes.
 */
const UNSENT_PARTITION = 'EVENTS#UNSENT';
const eventKey = (id: string) => ({ pk: `EVT#${id}`, sk: 'EVT' });

export class EventRepository {
  constructor(private readonly table: Table) {}

  async record(event: Omit<EventRecord, 'fanned_out_at'>): Promise<EventRecord> {
    const record: EventRecord = { ...event, fanned_out_at: null };
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...eventKey(event.id),
          ...record,
          gsi1pk: UNSENT_PARTITION,
          gsi1sk: `${event.created_at}#${event.id}`,
          expires_at: epochSeconds(new Date(event.created_at)) + EVENT_RETENTION_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return record;
  }

  async get(id: string): Promise<EventRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: eventKey(id), ConsistentRead: true }),
    );
    if (!out.Item) return null;
    const { id: eventId, type, org_id, app_id, body, created_at, fanned_out_at } = out.Item;
    return { id: eventId, type, org_id, app_id, body, created_at, fanned_out_at: fanned_out_at ?? null };
  }

  async markFannedOut(id: string, now = new Date()): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: eventKey(id),
        UpdateExpression: 'SET fanned_out_at = :now REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
  }

  /** Ids of events recorded before `before` and still not fanned out, oldest first. */
  listUnsent(before: Date, limit = 100): Promise<string[]> {
    return queryItems(
      this.table,
      {
        index: 'gsi1',
        partition: UNSENT_PARTITION,
        sortKey: { condition: '< :before', values: { ':before': before.toISOString() } },
        newestFirst: false,
        limit,
      },
      (item) => item.id as string,
    );
  }
}
