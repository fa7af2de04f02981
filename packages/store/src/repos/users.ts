import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { newId } from '@idv/core';
import { queryItems } from '../pagination.ts';
import { epochSeconds, isConditionFailure, stripKeys, type Table } from '../table.ts';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

export type Role = 'owner' | 'admin' | 'reviewer' | 'developer';

export interface ConsoleUser {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  created_at: string;
  /** Invited and not signed up yet: no password until the invitation link is used. */
  invited?: boolean;
}

/** How long an invitation link stays usable. */
export const INVITATION_TTL_DAYS = 7;

/** Why a team change was refused. */
export type TeamChangeRefusal = 'not_found' | 'last_owner' | 'exists';
export type TeamChangeResult = { ok: true; user: ConsoleUser } | { ok: false; reason: TeamChangeRefusal };

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A well-formed hash no password matches (random salt and hash), for unknown emails. */
export const UNKNOWN_PASSWORD_HASH = `scrypt$${randomBytes(16).toString('hex')}$${randomBytes(32).toString('hex')}`;

const userKey = (email: string) => ({ pk: `USER#${email.toLowerCase()}`, sk: 'USER' });
const teamPartition = (orgId: string) => `ORG#${orgId}#USR`;
/**
 * The number of owners of an organisation, kept beside it and changed in the same transaction
 * as every change of an owner, whose condition (`owners > 1`) is what keeps the last owner:
 * two owners demoting each other at once cannot both succeed.
 */
const ownerCountKey = (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'OWNER_COUNT' });
/** An invitation is found by the SHA-256 of its token; the token itself is never kept. */
const invitationKey = (token: string) => ({
  pk: `INVITE#${createHash('sha256').update(token).digest('hex')}`,
  sk: 'INVITE',
});

/** scrypt with a per-user salt; stored as `scrypt$<salt hex>$<hash hex>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await scrypt(password, Buffer.from(saltHex, 'hex'), expected.length);
  return timingSafeEqual(actual, expected);
}

export class UserRepository {
  constructor(private readonly table: Table) {}

  async create(input: { orgId: string; email: string; role: Role; password: string }, now = new Date()) {
    const { user, items } = await this.createItems(input, now);
    await this.table.doc.send(new TransactWriteCommand({ TransactItems: items }));
    return user;
  }

  /**
   * The same creation as transaction items (sign-up writes the organisation and its owner
   * together). The email is unique because the user's write is conditional on its key being
   * free; an owner also counts in the organisation's owner count.
   */
  async createItems(
    input: { orgId: string; email: string; role: Role; password: string },
    now = new Date(),
  ): Promise<{ user: ConsoleUser; items: TransactItem[] }> {
    const user = this.newUser(input, now);
    const items = [
      this.putUser(user, { password_hash: await hashPassword(input.password) }),
      ...(user.role === 'owner' ? [this.ownerCountChange(input.orgId, 1)] : []),
    ];
    return { user, items };
  }

  /**
   * Creates a user without a password and an invitation link token for them (valid 7 days,
   * single use); the token is returned once. `exists` when the email has an account already.
   */
  async invite(
    input: { orgId: string; email: string; role: Role },
    now = new Date(),
  ): Promise<{ ok: true; user: ConsoleUser; token: string } | { ok: false; reason: 'exists' }> {
    const user: ConsoleUser = { ...this.newUser(input, now), invited: true };
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000);
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            this.putUser(user, {}),
            ...(user.role === 'owner' ? [this.ownerCountChange(input.orgId, 1)] : []),
            {
              Put: {
                TableName: this.table.name,
                Item: {
                  ...invitationKey(token),
                  email: user.email,
                  user_id: user.id,
                  invite_expires_at: expires.toISOString(),
                  expires_at: epochSeconds(expires),
                },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return { ok: false, reason: 'exists' };
      throw error;
    }
    return { ok: true, user, token };
  }

  /** The invited user an invitation token opens, or null (unknown, used or expired). */
  async findInvitation(token: string, now = new Date()): Promise<ConsoleUser | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: invitationKey(token), ConsistentRead: true }),
    );
    if (!out.Item || String(out.Item.invite_expires_at) <= now.toISOString()) return null;
    const user = await this.getByEmail(String(out.Item.email));
    return user && user.id === out.Item.user_id && user.invited ? user : null;
  }

  /**
   * Sets the invited user's password and spends the token, in one transaction: a token works
   * once, and not for a user removed meanwhile. Null when the invitation cannot be used.
   */
  async acceptInvitation(token: string, password: string, now = new Date()): Promise<ConsoleUser | null> {
    const user = await this.findInvitation(token, now);
    if (!user) return null;
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.table.name,
                Key: invitationKey(token),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            {
              Update: {
                TableName: this.table.name,
                Key: userKey(user.email),
                UpdateExpression: 'SET password_hash = :hash REMOVE invited',
                ConditionExpression:
                  'attribute_exists(pk) AND id = :id AND attribute_not_exists(password_hash)',
                ExpressionAttributeValues: { ':hash': await hashPassword(password), ':id': user.id },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
    const { invited: _invited, ...accepted } = user;
    return accepted;
  }

  /** The organisation's users, oldest first. */
  async listForOrganisation(orgId: string): Promise<ConsoleUser[]> {
    return queryItems(
      this.table,
      { index: 'gsi1', partition: teamPartition(orgId), newestFirst: false },
      (item) => publicUser(item),
    );
  }

  /** A user of the organisation by id, or null (also for another organisation's user). */
  async getInOrganisation(orgId: string, id: string): Promise<ConsoleUser | null> {
    return (await this.listForOrganisation(orgId)).find((u) => u.id === id) ?? null;
  }

  /** Changes a user's role; the organisation's last owner cannot be demoted (`last_owner`). */
  async changeRole(orgId: string, id: string, role: Role): Promise<TeamChangeResult> {
    const user = await this.getInOrganisation(orgId, id);
    if (!user) return { ok: false, reason: 'not_found' };
    if (user.role === role) return { ok: true, user };
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.table.name,
          Key: userKey(user.email),
          UpdateExpression: 'SET #role = :role',
          ConditionExpression: 'attribute_exists(pk) AND id = :id AND #role = :old',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role, ':id': id, ':old': user.role },
        },
      },
    ];
    if (user.role === 'owner') items.push(this.ownerCountChange(orgId, -1));
    if (role === 'owner') items.push(this.ownerCountChange(orgId, 1));
    return this.teamChange(items, { ...user, role }, user.role === 'owner');
  }

  /** Removes a user of the organisation; never its last owner (`last_owner`). */
  async remove(orgId: string, id: string): Promise<TeamChangeResult> {
    const user = await this.getInOrganisation(orgId, id);
    if (!user) return { ok: false, reason: 'not_found' };
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: this.table.name,
          Key: userKey(user.email),
          ConditionExpression: 'attribute_exists(pk) AND id = :id AND #role = :role',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':id': id, ':role': user.role },
        },
      },
    ];
    if (user.role === 'owner') items.push(this.ownerCountChange(orgId, -1));
    return this.teamChange(items, user, user.role === 'owner');
  }

  /** The number of owners the organisation has (0 for one created before the count existed). */
  async ownerCount(orgId: string): Promise<number> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: ownerCountKey(orgId), ConsistentRead: true }),
    );
    return Number(out.Item?.owners ?? 0);
  }

  private async teamChange(
    items: TransactItem[],
    user: ConsoleUser,
    ownerLeaves: boolean,
  ): Promise<TeamChangeResult> {
    try {
      await this.table.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return { ok: true, user };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The user changed meanwhile, or (for an owner) the count refused to go below one.
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      const countRefused = ownerLeaves && reasons[1]?.Code === 'ConditionalCheckFailed';
      return { ok: false, reason: countRefused ? 'last_owner' : 'not_found' };
    }
  }

  private newUser(input: { orgId: string; email: string; role: Role }, now: Date): ConsoleUser {
    return {
      id: newId('usr'),
      org_id: input.orgId,
      email: input.email.toLowerCase(),
      role: input.role,
      created_at: now.toISOString(),
    };
  }

  private putUser(user: ConsoleUser, extra: Record<string, unknown>): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: {
          ...userKey(user.email),
          ...user,
          ...extra,
          gsi1pk: teamPartition(user.org_id),
          gsi1sk: `${user.created_at}#${user.id}`,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** +1 or -1 owner; a decrease only while another owner remains. */
  private ownerCountChange(orgId: string, delta: 1 | -1): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: ownerCountKey(orgId),
        UpdateExpression: 'ADD owners :delta',
        ...(delta < 0 ? { ConditionExpression: 'owners > :one' } : {}),
        ExpressionAttributeValues: delta < 0 ? { ':delta': delta, ':one': 1 } : { ':delta': delta },
      },
    };
  }

  /** The user with this email, or null (a console session re-reads its user on every request). */
  async getByEmail(email: string): Promise<ConsoleUser | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: userKey(email), ConsistentRead: true }),
    );
    return out.Item ? publicUser(out.Item) : null;
  }

  /** The user when the email and password match; null otherwise (same answer for both causes). */
  async authenticate(email: string, password: string): Promise<ConsoleUser | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: userKey(email) }),
    );
    if (!out.Item || typeof out.Item.password_hash !== 'string') {
      // The same scrypt work as for a real user, so the answer time does not reveal which emails exist.
      await passwordMatches(password, UNKNOWN_PASSWORD_HASH);
      return null;
    }
    if (!(await passwordMatches(password, out.Item.password_hash))) return null;
    return publicUser(out.Item);
  }
}

/** A user as the console sees it: never the password hash. */
function publicUser(item: Record<string, unknown>): ConsoleUser {
  const { password_hash: _hash, ...user } = stripKeys<ConsoleUser & { password_hash?: string }>(item);
  return user;
}
