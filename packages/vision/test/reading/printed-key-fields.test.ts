import { emptyPrintedFields } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { keyFieldsRead } from '../../src/document/finer-printed.ts';

/**
 * The key printed fields whose absence asks for the finer reading (document/finer-printed.ts):
 * names read run together count as missing, so that the finer reading, which often has the
 * spaces, is tried.
 */
describe('key printed fields', () => {
  const read = { ...emptyPrintedFields(), surname: 'KOUNTCHE', date_of_birth: '2000-01-08' };

  it('counts names read with their spaces', () => {
    expect(keyFieldsRead({ ...read, given_names: 'KADIDIATOU SAKINATOU' })).toBe(3);
  });

  it('does not count names read run together', () => {
    expect(keyFieldsRead({ ...read, given_names: 'KADIDIATOUSAKINATOU' })).toBe(2);
    expect(keyFieldsRead({ ...read, surname: 'DIALLOISSOUFOU', given_names: 'AMINATA' })).toBe(2);
  });
});
