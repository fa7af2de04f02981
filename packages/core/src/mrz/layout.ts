/**
 * Positions of the MRZ fields (ICAO 9303 parts 4, 5 and 6), 0-based, `end` exclusive.
 * One table per format so the parser and the builder share a single source of truth.
 */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export interface Span {
  line: number;
  start: number;
  end: number;
}

export interface MrzLayout {
  lineCount: number;
  lineLength: number;
  documentCode: Span;
  issuingState: Span;
  name: Span;
  documentNumber: Span;
  /** Position of the document number check digit (a '<' there announces a long number). */
  documentNumberCheck: Span;
  /** The optional data field where a long document number continues (TD1 line 1, TD2 line 2). */
  optionalData: Span;
  /** TD3: the personal number's own check digit. */
  optionalDataCheck: Span | null;
  /** TD1: the second optional data field (line 2). */
  optionalData2: Span | null;
  nationality: Span;
  dateOfBirth: Span;
  dateOfBirthCheck: Span;
  sex: Span;
  dateOfExpiry: Span;
  dateOfExpiryCheck: Span;
  composite: Span;
  /** What the composite check digit covers, in order. */
  compositeData: Span[];
  /** Whether a document number longer than 9 may continue in `optionalData`. */
  longNumbers: boolean;
}

const s = (line: number, start: number, end: number): Span => ({ line, start, end });

export const MRZ_LAYOUTS: Record<MrzFormat, MrzLayout> = {
  TD3: {
    lineCount: 2,
    lineLength: 44,
    documentCode: s(0, 0, 2),
    issuingState: s(0, 2, 5),
    name: s(0, 5, 44),
    documentNumber: s(1, 0, 9),
    documentNumberCheck: s(1, 9, 10),
    nationality: s(1, 10, 13),
    dateOfBirth: s(1, 13, 19),
    dateOfBirthCheck: s(1, 19, 20),
    sex: s(1, 20, 21),
    dateOfExpiry: s(1, 21, 27),
    dateOfExpiryCheck: s(1, 27, 28),
    optionalData: s(1, 28, 42),
    optionalDataCheck: s(1, 42, 43),
    optionalData2: null,
    composite: s(1, 43, 44),
    compositeData: [s(1, 0, 10), s(1, 13, 20), s(1, 21, 43)],
    // ICAO defines the long-number rule for TD1 and TD2 only; a passport number has 9 positions.
    longNumbers: false,
  },
  TD2: {
    lineCount: 2,
    lineLength: 36,
    documentCode: s(0, 0, 2),
    issuingState: s(0, 2, 5),
    name: s(0, 5, 36),
    documentNumber: s(1, 0, 9),
    documentNumberCheck: s(1, 9, 10),
    nationality: s(1, 10, 13),
    dateOfBirth: s(1, 13, 19),
    dateOfBirthCheck: s(1, 19, 20),
    sex: s(1, 20, 21),
    dateOfExpiry: s(1, 21, 27),
    dateOfExpiryCheck: s(1, 27, 28),
    optionalData: s(1, 28, 35),
    optionalDataCheck: null,
    optionalData2: null,
    composite: s(1, 35, 36),
    compositeData: [s(1, 0, 10), s(1, 13, 20), s(1, 21, 35)],
    longNumbers: true,
  },
  TD1: {
    lineCount: 3,
    lineLength: 30,
    documentCode: s(0, 0, 2),
    issuingState: s(0, 2, 5),
    documentNumber: s(0, 5, 14),
    documentNumberCheck: s(0, 14, 15),
    optionalData: s(0, 15, 30),
    optionalDataCheck: null,
    dateOfBirth: s(1, 0, 6),
    dateOfBirthCheck: s(1, 6, 7),
    sex: s(1, 7, 8),
    dateOfExpiry: s(1, 8, 14),
    dateOfExpiryCheck: s(1, 14, 15),
    nationality: s(1, 15, 18),
    optionalData2: s(1, 18, 29),
    composite: s(1, 29, 30),
    compositeData: [s(0, 5, 30), s(1, 0, 7), s(1, 8, 15), s(1, 18, 29)],
    name: s(2, 0, 30),
    longNumbers: true,
  },
};

/** Width of the name field per format (TD3 39, TD2 31, TD1 30). */
export function nameWidth(format: MrzFormat): number {
  const { name } = MRZ_LAYOUTS[format];
  return name.end - name.start;
}
