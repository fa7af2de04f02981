import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { GetCommand, PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { newId } from '@idv/core';
import { stripKeys, type Table } from '../table.ts';

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
}

/** A well-formed hash no password matches (random salt and hash), for unknown emails. */
export const UNKNOWN_PASSWORD_HASH = `scrypt$${randomBytes(16).toString('hex')}$${randomBytes(32).toString('hex')}`;

const userKey = (email: string) => ({ pk: `USER#${email.toLowerCase()}`, sk: 'USER' });

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
    const { user, item } = await this.createItem(input, now);
    if (!item.Put) throw new Error('unreachable');
    await this.table.doc.send(new PutCommand(item.Put));
    return user;
  }

  /**
   * The same creation as a transaction write (sign-up writes the organisation and its owner
   * together). The email is unique because the write is conditional on its key being free.
   */
  async createItem(
    input: { orgId: string; email: string; role: Role; password: string },
    now = new Date(),
  ): Promise<{ user: ConsoleUser; item: NonNullable<TransactWriteCommandInput['TransactItems']>[number] }> {
    const user: ConsoleUser = {
      id: newId('usr'),
      org_id: input.orgId,
      email: input.email.toLowerCase(),
      role: input.role,
      created_at: now.toISOString(),
    };
    const item = {
      Put: {
        TableName: this.table.name,
        Item: { ...userKey(user.email), ...user, password_hash: await hashPassword(input.password) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    return { user, item };
  }

  /** The user with this email, or null (a console session re-reads its user on every request). */
  async getByEmail(email: string): Promise<ConsoleUser | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: userKey(email), ConsistentRead: true }),
    );
    if (!out.Item) return null;
    const { password_hash: _hash, ...user } = stripKeys<ConsoleUser & { password_hash: string }>(out.Item);
    return user;
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
    const { password_hash: _hash, ...user } = stripKeys<ConsoleUser & { password_hash: string }>(out.Item);
    return user;
  }
}
