import { buildMrz } from '@idv/core';

/**
 * Invented machine-readable zones for the reading tests, one per format. The identities are
 * made up here (no fixture value): a passport with long filler runs after short names, a Sahel
 * card whose 17-digit number continues in the optional data, and a TD2 card.
 */
export const PASSPORT_ZONE = buildMrz({
  format: 'TD3',
  documentCode: 'P',
  issuingState: 'NER',
  nationality: 'NER',
  documentNumber: 'NE5821307',
  surname: 'SANI',
  givenNames: 'HAWA',
  dateOfBirth: '870914',
  sex: 'F',
  dateOfExpiry: '330517',
});

export const SAHEL_CARD_ZONE = buildMrz({
  format: 'TD1',
  documentCode: 'ID',
  issuingState: 'MLI',
  nationality: 'MLI',
  documentNumber: '12345678901234567',
  surname: 'OUEDRAOGO',
  givenNames: 'ISSA',
  dateOfBirth: '910315',
  sex: 'M',
  dateOfExpiry: '340101',
});

export const TD2_CARD_ZONE = buildMrz({
  format: 'TD2',
  documentCode: 'ID',
  issuingState: 'BFA',
  nationality: 'BFA',
  documentNumber: 'B7K204519',
  surname: 'KABORE',
  givenNames: 'AWA KADI',
  dateOfBirth: '020229',
  sex: 'F',
  dateOfExpiry: '291130',
});

/** A passport with a letter-prefixed number and two given names (decoding and repair tests). */
export const TWO_NAMES_PASSPORT_ZONE = buildMrz({
  format: 'TD3',
  documentCode: 'P',
  issuingState: 'NER',
  nationality: 'NER',
  documentNumber: 'AB1234567',
  surname: 'MARTIN',
  givenNames: 'CHRISTELLE ANNA',
  dateOfBirth: '870412',
  sex: 'F',
  dateOfExpiry: '310925',
});
