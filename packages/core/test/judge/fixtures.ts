import {
  type BuildMrzInput,
  buildMrz,
  emptyPrintedFields,
  type Observations,
  ObservationsSchema,
  type PrintedFields,
} from '../../src/index.ts';

/**
 * Synthetic observations for the judging tests: what the analyser would report for a clean
 * photo of each supported document. Every test starts from one and changes what it tests.
 */

/** The verification instant of every judging test (its UTC date is 2025-06-01). */
export const NOW = new Date('2025-06-01T10:00:00Z');

/** The test passport's MRZ parts. */
const PASSPORT_MRZ: BuildMrzInput = {
  format: 'TD3',
  issuingState: 'NER',
  nationality: 'NER',
  documentNumber: '18PC01234',
  surname: 'Maïga',
  givenNames: 'Aïssata Mariam',
  dateOfBirth: '900314',
  sex: 'F',
  dateOfExpiry: '300101',
};

/** The test passport's MRZ lines with some parts changed (valid check digits throughout). */
export function passportMrzWith(changes: Partial<BuildMrzInput> = {}): string[] {
  return buildMrz({ ...PASSPORT_MRZ, ...changes });
}

const passportMrz = passportMrzWith();

export function passport(): Observations {
  return ObservationsSchema.parse({
    document: { type: 'passport', layout: 'td3', country: 'NER', legibility: 0.93 },
    mrz: { lines: passportMrz, side: 'front', corrected: false, confidence: 0.97 },
    printed: {
      ...emptyPrintedFields(),
      surname: 'MAÏGA',
      given_names: 'Aïssata Mariam',
      date_of_birth: '1990-03-14',
      sex: 'F',
      nationality: 'Nigérienne',
      place_of_birth: 'Niamey',
      document_number: '18PC01234',
      date_of_issue: '2020-01-02',
      date_of_expiry: '2030-01-01',
      issuing_authority: 'DGPN',
    } satisfies PrintedFields,
    portrait_found: true,
    face: { faces_in_document: 1, faces_in_selfie: 1, similarity: 0.72 },
    tamper: [],
    timings: { ocr_ms: 1200, total_ms: 4000 },
  });
}

const cardMrz = buildMrz({
  format: 'TD1',
  issuingState: 'MLI',
  nationality: 'MLI',
  documentNumber: '12345678901234567',
  surname: 'Keïta',
  givenNames: 'Modibo',
  dateOfBirth: '851120',
  sex: 'M',
  dateOfExpiry: '320630',
});

/** The Sahel alliance biometric card (TD1, 17-digit number). */
export function biometricCard(): Observations {
  return ObservationsSchema.parse({
    document: { type: 'cni', layout: 'td1', country: 'MLI', legibility: 0.9 },
    mrz: { lines: cardMrz, side: 'back', corrected: false, confidence: 0.95 },
    printed: {
      ...emptyPrintedFields(),
      surname: 'KEÏTA',
      given_names: 'Modibo',
      date_of_birth: '1985-11-20',
      sex: 'M',
      place_of_birth: 'Bamako',
      document_number: '1234 5678 9012 34567',
      date_of_issue: '2022-07-01',
      date_of_expiry: '2032-06-30',
    } satisfies PrintedFields,
    portrait_found: true,
    face: { faces_in_document: 1, faces_in_selfie: 1, similarity: 0.7 },
    tamper: [],
    timings: {},
  });
}

/** The older Niger paper card: no MRZ, an issue date and no expiry date. */
export function paperCard(): Observations {
  return ObservationsSchema.parse({
    document: { type: 'cni', layout: 'niger_paper_card', country: 'NER', legibility: 0.8 },
    mrz: null,
    printed: {
      ...emptyPrintedFields(),
      surname: 'ISSOUFOU',
      given_names: 'Abdoulaye',
      date_of_birth: '1978-05-02',
      sex: 'M',
      place_of_birth: 'Zinder',
      document_number: '123/45/ZR',
      date_of_issue: '2022-03-15',
      issuing_authority: 'Préfecture de Zinder',
    } satisfies PrintedFields,
    portrait_found: true,
    face: { faces_in_document: 1, faces_in_selfie: 1, similarity: 0.7 },
    tamper: [],
    timings: {},
  });
}

/** Deep copy with changes; `printed` and `document` are merged, the rest replaced. */
export function withChanges(
  base: Observations,
  changes: Partial<Omit<Observations, 'printed' | 'document'>> & {
    printed?: Partial<PrintedFields>;
    document?: Partial<Observations['document']>;
  },
): Observations {
  const copy = structuredClone(base);
  const { printed, document, ...rest } = changes;
  return ObservationsSchema.parse({
    ...copy,
    ...rest,
    printed: { ...copy.printed, ...printed },
    document: { ...copy.document, ...document },
  });
}

/** Replaces the selfie similarity. */
export function withSimilarity(base: Observations, similarity: number | null): Observations {
  return withChanges(base, { face: { faces_in_document: 1, faces_in_selfie: 1, similarity } });
}

/** The named check of a judgement. */
export function checkOf(j: { checks: { name: string }[] }, name: string) {
  const c = j.checks.find((x) => x.name === name);
  if (!c) throw new Error(`no ${name} check`);
  return c as import('../../src/index.ts').Check;
}

/** Replaces one character of the observed MRZ. */
export function withMrzChar(base: Observations, line: number, index: number, ch: string): Observations {
  const lines = base.mrz!.lines.map((l, i) => (i === line ? l.slice(0, index) + ch + l.slice(index + 1) : l));
  return withChanges(base, { mrz: { ...base.mrz!, lines } });
}
