import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '@idv/core';
import { stripKeys, type Table } from '../table.ts';
import { hashPassword, passwordMatches, UNKNOWN_PASSWORD_HASH } from './users.ts';

/**
 * A platform operator: runs the service for every organisation (activates live mode, suspends).
 * A separate kind of account, kept apart from organisation users (other items, other sessions),
 * so no organisation role can ever become an operator by a role change.
 */
export interface PlatformOperator {
  id: string;
  email: string;
  created_at: string;
}

const operatorKey = (email: string) => ({ pk: `OPERATOR#${email.toLowerCase()}`, sk: 'OPERATOR' });

export class OperatorRepository {
  constructor(private readonly table: Table) {}

  /** Creates an operator; the email is unique (conditional write). */
  async create(input: { email: string; password: string }, now = new Date()): Promise<PlatformOperator> {
    const operator: PlatformOperator = {
      id: newId('opr'),
      email: input.email.toLowerCase(),
      created_at: now.toISOString(),
    };
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...operatorKey(operator.email),
          ...operator,
          password_hash: await hashPassword(input.password),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return operator;
  }

  /** The operator with this email, or null (an operator session re-reads it on every request). */
  async getByEmail(email: string): Promise<PlatformOperator | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: operatorKey(email), ConsistentRead: true }),
    );
    if (!out.Item) return null;
    const { password_hash: _hash, ...operator } = stripKeys<PlatformOperator & { password_hash: string }>(
      out.Item,
    );
    return operator;
  }

  /** The operator when email and password match; null otherwise, after the same scrypt work. */
  async authenticate(email: string, password: string): Promise<PlatformOperator | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: operatorKey(email), ConsistentRead: true }),
    );
    if (!out.Item || typeof out.Item.password_hash !== 'string') {
      await passwordMatches(password, UNKNOWN_PASSWORD_HASH);
      return null;
    }
    if (!(await passwordMatches(password, out.Item.password_hash))) return null;
    const { password_hash: _hash, ...operator } = stripKeys<PlatformOperator & { password_hash: string }>(
      out.Item,
    );
    return operator;
  }
}
