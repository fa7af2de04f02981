import { buildMrz } from '@idv/core';
import type { Rng } from './random.ts';

/**
 * The holder and document data of one synthetic document: names of the region (with the
 * accents printed on real documents; the MRZ transliterates them), dates, numbers in each
 * document's own format, and the MRZ built from them by core's ICAO 9303 writer.
 */

export type DocumentKind = 'passport' | 'sahel_card' | 'td2_card' | 'niger_paper';

export interface Holder {
  surname: string;
  givenNames: string;
  sex: 'M' | 'F';
  /** ISO YYYY-MM-DD */
  birthDate: string;
  placeOfBirth: string;
  /** ISO YYYY-MM-DD */
  issueDate: string;
  /** ISO YYYY-MM-DD; null on Niger's paper card (no expiry printed: issue + 5 years). */
  expiryDate: string | null;
  /** ICAO code of the issuing state. */
  country: string;
  nationality: string;
  documentNumber: string;
  authority: string;
  address: string;
  profession: string;
  /** The MRZ lines, null for a document without one. */
  mrz: string[] | null;
}

const SURNAMES = [
  'DIALLO',
  'TRAORE',
  'OUEDRAOGO',
  'MAIGA',
  'ISSOUFOU',
  'MAHAMADOU',
  'KONATE',
  'SAWADOGO',
  'COULIBALY',
  'KEITA',
  'TOURE',
  'CISSE',
  'SANOGO',
  'KABORE',
  'ZONGO',
  'COMPAORE',
  'HAMANI',
  'ABDOULAYE',
  'BOUBACAR',
  'MOUSSA',
  'IBRAHIM',
  'SOUMANA',
  'GARBA',
  'ADAMOU',
  'SIDIBE',
  'DEMBELE',
  'DOUMBIA',
  'YAMEOGO',
  'ILBOUDO',
  'BA',
  'SY',
  'KONE',
  'HAMIDOU',
  'ALMOUSTAPHA',
  'DAOUDA',
  'SEYNI',
  'KOUNTCHE',
  'SALIFOU',
  'TIEMOKO',
  'NIKIEMA',
  'BAMBA',
  'DICKO',
  'OUATTARA',
  'ZERBO',
  'KANTÉ',
  "N'DIAYE",
  'HAÏDARA',
  'DÉMBÉLÉ',
  'GUINDO',
  'TAMBOURA',
  'SOW',
  'BARRY',
  'MAÏGA',
  'ABDOU KADER',
  'MOUMOUNI',
  'OUMAROU',
  'YACOUBA',
  'ZAKARI',
  'TANDIA',
];
const GIVEN_F = [
  'AMINATA',
  'FATOUMATA',
  'AÏSSATA',
  'MARIAM',
  'HADIZA',
  'RAMATOU',
  'SALAMATOU',
  'ZEINABOU',
  'AWA',
  'KADIDIATOU',
  'ROKIA',
  'OUMOU',
  'HAWA',
  'BINTOU',
  'SALIMATA',
  'MARIETOU',
  'RAKIETOU',
  'HALIMATOU',
  'NAFISSATOU',
  'DJENEBA',
  'FANTA',
  'ASSÉTOU',
  'CHRISTELLE',
  'ÉLISABETH',
  'HÉLÈNE',
  'ZALIA',
  'BALKISSA',
  'MAIMOUNA',
  'SAKINATOU',
];
const GIVEN_M = [
  'MAMADOU',
  'IBRAHIM',
  'MOUSSA',
  'ABDOULAYE',
  'SEYDOU',
  'OUSMANE',
  'ISSA',
  'HAMIDOU',
  'BOUREIMA',
  'ADAMA',
  'SOULEYMANE',
  'YACOUBA',
  'ALI',
  'MAHAMANE',
  'ABOUBACAR',
  'SAÏDOU',
  'ISSOUF',
  'LASSINA',
  'DRISSA',
  'MODIBO',
  'BOUBACAR',
  'SALIF',
  'AMADOU',
  'HAROUNA',
  'ZAKARIA',
  'JEAN-BAPTISTE',
  'FRANÇOIS',
  'RASMANÉ',
  'KARIM',
];
const PLACES: Record<string, string[]> = {
  NER: ['NIAMEY', 'ZINDER', 'MARADI', 'TAHOUA', 'AGADEZ', 'DOSSO', 'TILLABERI', 'DIFFA', "BIRNI N'KONNI"],
  MLI: ['BAMAKO', 'SIKASSO', 'SEGOU', 'MOPTI', 'KAYES', 'GAO', 'TOMBOUCTOU', 'KOUTIALA', 'KATI'],
  BFA: ['OUAGADOUGOU', 'BOBO-DIOULASSO', 'KOUDOUGOU', 'OUAHIGOUYA', 'BANFORA', 'KAYA', "FADA N'GOURMA"],
  SEN: ['DAKAR', 'THIES', 'SAINT-LOUIS', 'KAOLACK', 'ZIGUINCHOR'],
  CIV: ['ABIDJAN', 'BOUAKE', 'YAMOUSSOUKRO', 'DALOA', 'KORHOGO'],
  TCD: ["N'DJAMENA", 'MOUNDOU', 'ABECHE', 'SARH'],
};
const NATIONALITY: Record<string, string> = {
  NER: 'NIGERIENNE',
  MLI: 'MALIENNE',
  BFA: 'BURKINABE',
  SEN: 'SENEGALAISE',
  CIV: 'IVOIRIENNE',
  TCD: 'TCHADIENNE',
};
const AUTHORITIES = [
  'DIRECTION DE LA SURETE NATIONALE',
  'DIRECTION GENERALE DE LA POLICE',
  "MINISTERE DE L'INTERIEUR",
  'COMMISSARIAT CENTRAL',
  "OFFICE NATIONAL D'IDENTIFICATION",
];
const PROFESSIONS = [
  'COMMERCANT',
  'ENSEIGNANTE',
  'ETUDIANT',
  'CULTIVATEUR',
  'MENAGERE',
  'INFIRMIER',
  'CHAUFFEUR',
];
const STREETS = [
  'QUARTIER PLATEAU',
  'RUE 12 KOIRA KANO',
  'SECTEUR 15',
  'HAMDALLAYE ACI 2000',
  'BP 412',
  'YANTALA',
];

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addYears(isoDate: string, years: number, days = 0): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}

function randomDate(r: Rng, fromYear: number, toYear: number): string {
  const a = Date.UTC(fromYear, 0, 1);
  const b = Date.UTC(toYear, 11, 31);
  return iso(new Date(a + Math.floor(r.next() * ((b - a) / 86400000)) * 86400000));
}

const digits = (r: Rng, n: number) => Array.from({ length: n }, () => String(r.int(0, 9))).join('');
const letters = (r: Rng, n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(65 + r.int(0, 25))).join('');

/** `YYYY-MM-DD` to the MRZ's `YYMMDD`. */
export function mrzDate(isoDate: string): string {
  return isoDate.slice(2, 4) + isoDate.slice(5, 7) + isoDate.slice(8, 10);
}

function documentNumber(r: Rng, kind: DocumentKind): string {
  switch (kind) {
    case 'passport':
      // Two letters and seven digits, or nine digits (both seen on the region's passports).
      return r.chance(0.7) ? letters(r, 2) + digits(r, 7) : digits(r, 9);
    case 'sahel_card':
      // The alliance's biometric card: 17 digits, longer than the MRZ's 9 positions.
      return `${r.int(1, 9)}${digits(r, 16)}`;
    case 'td2_card':
      return r.chance(0.5) ? letters(r, 1) + digits(r, 8) : digits(r, 9);
    case 'niger_paper':
      return r.chance(0.6) ? digits(r, r.int(7, 10)) : `${digits(r, 5)}${letters(r, 2)}${digits(r, 2)}`;
  }
}

/** Names holding a K, for `kNames` (a genuine K read next to fillers must stay a K). */
const withK = (names: string[]) => names.filter((n) => n.includes('K'));

export function makeHolder(r: Rng, kind: DocumentKind, opts: { kNames?: boolean } = {}): Holder {
  const surnames = opts.kNames ? withK(SURNAMES) : SURNAMES;
  const sex = r.chance(0.5) ? 'F' : 'M';
  const country =
    kind === 'niger_paper'
      ? 'NER'
      : kind === 'sahel_card'
        ? r.pick(['NER', 'MLI', 'BFA'])
        : r.pick(['NER', 'MLI', 'BFA', 'NER', 'MLI', 'BFA', 'SEN', 'CIV', 'TCD']);
  let surname = r.pick(surnames);
  if (r.chance(0.08)) surname = `${surname} ${r.pick(surnames)}`;
  const given = sex === 'F' ? GIVEN_F : GIVEN_M;
  const pool = opts.kNames ? withK(given) : given;
  const count = r.chance(0.45) ? 1 : r.chance(0.8) ? 2 : 3;
  const picked = Array.from({ length: count }, () => r.pick(pool));
  const givenNames = [...new Set(picked)].join(' ');
  const birthDate = randomDate(r, 1950, 2007);
  // Issued within the last years; some already expired (the reader reads them all the same).
  const issueDate = randomDate(r, kind === 'niger_paper' ? 2012 : 2016, 2026);
  const validity = kind === 'passport' ? r.pick([5, 10]) : kind === 'niger_paper' ? 0 : r.pick([5, 10]);
  const expiryDate = kind === 'niger_paper' ? null : addYears(issueDate, validity, -1);
  const documentNumberValue = documentNumber(r, kind);
  const holder: Holder = {
    surname,
    givenNames,
    sex,
    birthDate,
    placeOfBirth: r.pick(PLACES[country] ?? PLACES.NER!),
    issueDate,
    expiryDate,
    country,
    nationality: NATIONALITY[country] ?? 'NIGERIENNE',
    documentNumber: documentNumberValue,
    authority: r.pick(AUTHORITIES),
    address: r.pick(STREETS),
    profession: r.pick(PROFESSIONS),
    mrz: null,
  };
  if (kind !== 'niger_paper') {
    holder.mrz = buildMrz({
      format: kind === 'passport' ? 'TD3' : kind === 'sahel_card' ? 'TD1' : 'TD2',
      documentCode:
        kind === 'passport' ? 'P' : kind === 'sahel_card' ? r.pick(['ID', 'I', 'IC']) : r.pick(['I', 'ID']),
      issuingState: country,
      nationality: country,
      documentNumber: documentNumberValue,
      surname,
      givenNames,
      dateOfBirth: mrzDate(birthDate),
      sex,
      dateOfExpiry: mrzDate(expiryDate!),
    });
  }
  return holder;
}

/** The country's name as printed in the header, French and English. */
export const COUNTRY_NAMES: Record<string, { fr: string; en: string }> = {
  NER: { fr: 'RÉPUBLIQUE DU NIGER', en: 'REPUBLIC OF NIGER' },
  MLI: { fr: 'RÉPUBLIQUE DU MALI', en: 'REPUBLIC OF MALI' },
  BFA: { fr: 'BURKINA FASO', en: 'BURKINA FASO' },
  SEN: { fr: 'RÉPUBLIQUE DU SÉNÉGAL', en: 'REPUBLIC OF SENEGAL' },
  CIV: { fr: "RÉPUBLIQUE DE CÔTE D'IVOIRE", en: "REPUBLIC OF CÔTE D'IVOIRE" },
  TCD: { fr: 'RÉPUBLIQUE DU TCHAD', en: 'REPUBLIC OF CHAD' },
};
