import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryItems } from '../pagination.ts';
import { epochSeconds, isConditionFailure, type Table } from '../table.ts';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** The delivery record as DESIGN.md fixes it (what the API lists). */
export interface WebhookDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  /** `failed` means every attempt is spent (or the endpoint is gone). */
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** When the next attempt is due; null once the delivery is finished or an attempt is under way. */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The worker's bookkeeping beside the public record. `in_flight` with `claimed_at` marks an
 * attempt that was claimed (counted) but whose outcome is not recorded yet, so a redelivered
 * queue message can tell "under way elsewhere" from "the worker died"; `enqueued_attempt` is the
 * highest attempt whose queue message was sent, so a duplicate message never re-sends it.
 */
export interface WebhookDeliveryState extends WebhookDelivery {
  org_id: string;
  in_flight: boolean;
  claimed_at: string | null;
  enqueued_attempt: number;
}

/** Delivery records carry no personal data; they are kept 30 days for the customer's support. */
export const DELIVERY_RETENTION_DAYS = 30;
/** Spec: the deliveries list shows the last 50 per endpoint. */
export const DELIVERIES_LISTED = 50;

const PUBLIC_FIELDS = [
  'id',
  'event_id',
  'endpoint_id',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'created_at',
  'updated_at',
] as const;

const deliveryKey = (id: string) => ({ pk: `WHD#${id}`, sk: 'WHD' });
/**
 * Every unfinished delivery has a "due" marker beside it in one sparse index partition, sorted
 * by the time it next needs the worker, so a recovery pass can find the overdue ones from the
 * table alone (the queue may have lost their messages). The marker is written before the
 * delivery and removed only after it is finished, so a pending delivery never lacks one; a
 * marker that is early or outlives its delivery only costs the pass one read.
 */
const DUE_PARTITION = 'WHD#DUE';
const dueMarkerKey = (id: string) => ({ pk: `WHD#${id}`, sk: 'DUE' });

/** A due marker as a recovery pass reads it: the delivery, and the marker's sort key. */
export interface DueDelivery {
  id: string;
  marker: string;
}
const listPartition = (endpointId: string) => `WHE#${endpointId}#WHD`;

function publicView(item: Record<string, unknown>): WebhookDelivery {
  return Object.fromEntries(PUBLIC_FIELDS.map((f) => [f, item[f] ?? null])) as unknown as WebhookDelivery;
}

function stateView(item: Record<string, unknown>): WebhookDeliveryState {
  return {
    ...publicView(item),
    org_id: item.org_id as string,
    in_flight: Boolean(item.in_flight),
    claimed_at: (item.claimed_at as string | undefined) ?? null,
    enqueued_attempt: Number(item.enqueued_attempt ?? 0),
  };
}

export interface AttemptOutcome {
  status: WebhookDeliveryStatus;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

export class WebhookDeliveryRepository {
  constructor(private readonly table: Table) {}

  /**
   * Creates the delivery of one event to one endpoint unless it exists already (the id is
   * derived from both, so a repeated fan-out finds the first one). Returns the record either way.
   */
  async createIfAbsent(
    input: { id: string; eventId: string; endpointId: string; orgId: string },
    now = new Date(),
  ): Promise<{ delivery: WebhookDeliveryState; created: boolean }> {
    const at = now.toISOString();
    const delivery: WebhookDeliveryState = {
      id: input.id,
      event_id: input.eventId,
      endpoint_id: input.endpointId,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
      org_id: input.orgId,
      in_flight: false,
      claimed_at: null,
      enqueued_attempt: 0,
    };
    // The marker first: a crash between the two writes leaves a marker without a delivery
    // (cleared by the recovery pass), never a delivery no pass can find.
    await this.putDueMarker(input.id, at, now);
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...deliveryKey(input.id),
            ...delivery,
            gsi1pk: listPartition(input.endpointId),
            gsi1sk: `${at}#${input.id}`,
            expires_at: epochSeconds(now) + DELIVERY_RETENTION_DAYS * 86_400,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { delivery, created: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const existing = await this.get(input.id);
    if (!existing) throw new Error(`delivery ${input.id} exists but cannot be read`);
    return { delivery: existing, created: false };
  }

  async get(id: string): Promise<WebhookDeliveryState | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: deliveryKey(id), ConsistentRead: true }),
    );
    return out.Item ? stateView(out.Item) : null;
  }

  /**
   * Counts attempt `attempt` as started — only if the previous one is the last recorded and
   * nothing is under way. This conditional write is what makes a duplicate queue message
   * harmless: of two workers holding the same message, one wins and the other sends nothing.
   */
  async claim(id: string, attempt: number, now = new Date()): Promise<boolean> {
    return this.conditionalUpdate({
      Key: deliveryKey(id),
      UpdateExpression:
        'SET attempts = :n, in_flight = :true, claimed_at = :now, next_attempt_at = :null, updated_at = :now',
      ConditionExpression: '#status = :pending AND attempts = :previous AND in_flight = :false',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':n': attempt,
        ':previous': attempt - 1,
        ':true': true,
        ':false': false,
        ':null': null,
        ':pending': 'pending',
        ':now': now.toISOString(),
      },
    });
  }

  /** Records the outcome of the claimed attempt (by the same claim: attempt and claim time). */
  async recordOutcome(
    id: string,
    claim: { attempt: number; claimedAt: string },
    outcome: AttemptOutcome,
    now = new Date(),
  ): Promise<boolean> {
    const recorded = await this.conditionalUpdate({
      Key: deliveryKey(id),
      UpdateExpression:
        'SET #status = :status, last_status_code = :code, last_error = :error, next_attempt_at = :next, ' +
        'in_flight = :false, updated_at = :now',
      ConditionExpression: 'attempts = :n AND in_flight = :true AND claimed_at = :claimed',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': outcome.status,
        ':code': outcome.last_status_code,
        ':error': outcome.last_error,
        ':next': outcome.next_attempt_at,
        ':n': claim.attempt,
        ':claimed': claim.claimedAt,
        ':true': true,
        ':false': false,
        ':now': now.toISOString(),
      },
    });
    if (recorded) {
      if (outcome.status === 'pending' && outcome.next_attempt_at) {
        await this.putDueMarker(id, outcome.next_attempt_at, now);
      } else {
        await this.deleteDueMarker(id);
      }
    }
    return recorded;
  }

  /** Ends a pending delivery without an attempt (its endpoint was deleted, its event expired). */
  async abandon(id: string, attempts: number, error: string, now = new Date()): Promise<boolean> {
    const abandoned = await this.conditionalUpdate({
      Key: deliveryKey(id),
      UpdateExpression:
        'SET #status = :failed, last_error = :error, next_attempt_at = :null, updated_at = :now',
      ConditionExpression: '#status = :pending AND attempts = :n AND in_flight = :false',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':failed': 'failed',
        ':pending': 'pending',
        ':error': error,
        ':null': null,
        ':n': attempts,
        ':false': false,
        ':now': now.toISOString(),
      },
    });
    if (abandoned) await this.deleteDueMarker(id);
    return abandoned;
  }

  /**
   * Unfinished deliveries whose marker is due before `before`, oldest first: what a recovery
   * pass looks at. The delivery record itself decides what, if anything, is overdue.
   */
  listDue(before: Date, limit = 100): Promise<DueDelivery[]> {
    return queryItems(
      this.table,
      {
        index: 'gsi1',
        partition: DUE_PARTITION,
        sortKey: { condition: '< :before', values: { ':before': before.toISOString() } },
        newestFirst: false,
        limit,
      },
      (item) => ({ id: item.id as string, marker: item.gsi1sk as string }),
    );
  }

  /**
   * Removes a marker the recovery pass found stale (its delivery finished or never created),
   * only if nobody moved it since it was read.
   */
  async clearDueMarker(due: DueDelivery): Promise<boolean> {
    try {
      await this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: dueMarkerKey(due.id),
          ConditionExpression: 'gsi1sk = :marker',
          ExpressionAttributeValues: { ':marker': due.marker },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async putDueMarker(id: string, dueAt: string, now: Date): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...dueMarkerKey(id),
          id,
          gsi1pk: DUE_PARTITION,
          gsi1sk: `${dueAt}#${id}`,
          expires_at: epochSeconds(now) + DELIVERY_RETENTION_DAYS * 86_400,
        },
      }),
    );
  }

  private async deleteDueMarker(id: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: dueMarkerKey(id) }));
  }

  /** Notes that the queue message for `attempt` was sent (never lowers the mark). */
  async markEnqueued(id: string, attempt: number): Promise<void> {
    await this.conditionalUpdate({
      Key: deliveryKey(id),
      UpdateExpression: 'SET enqueued_attempt = :n',
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(enqueued_attempt) OR enqueued_attempt < :n)',
      ExpressionAttributeValues: { ':n': attempt },
    });
  }

  /** The endpoint's last deliveries, newest first (spec: 50). */
  listForEndpoint(endpointId: string, limit = DELIVERIES_LISTED): Promise<WebhookDelivery[]> {
    return queryItems(this.table, { index: 'gsi1', partition: listPartition(endpointId), limit }, publicView);
  }

  private async conditionalUpdate(
    input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>,
  ): Promise<boolean> {
    try {
      await this.table.doc.send(new UpdateCommand({ TableName: this.table.name, ...input }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
