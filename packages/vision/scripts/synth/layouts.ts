import type { DocumentKind } from './content.ts';
import type { FontSpec } from './measure.ts';

/**
 * The document templates. Several independent layouts per document type: where the fields are,
 * how they are labelled (French, English, bilingual; label wording), fonts and sizes of the
 * printed zone, background and security print, portrait placement, MRZ size and margins.
 * One layout per type (`heldOut: true`) is never looked at while tuning the reader: its figures
 * are reported apart, as a measure of reading a template nobody tuned to.
 */

export type FieldName =
  | 'surname'
  | 'given_names'
  | 'date_of_birth'
  | 'place_of_birth'
  | 'sex'
  | 'nationality'
  | 'document_number'
  | 'date_of_issue'
  | 'date_of_expiry'
  | 'issuing_authority'
  | 'address'
  | 'profession';

export type Side = 'front' | 'back' | 'page';

export type DateFormat = 'dots' | 'slashes' | 'dashes' | 'month_fr' | 'month_en' | 'month_bi' | 'spaces';

export type LabelStyle =
  /** Small label, value on the line below (passports, most cards). */
  | 'stacked'
  /** "Label : value" on one line. */
  | 'inline'
  /** Labels in one column, values in a column to their right. */
  | 'table';

export type Background = 'plain' | 'guilloche' | 'gradient' | 'waves' | 'paper' | 'rosette';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LayoutSpec {
  id: string;
  kind: DocumentKind;
  side: Side;
  heldOut: boolean;
  /** Base size in px (rendered at a random scale). */
  width: number;
  height: number;
  lang: 'fr' | 'en' | 'bi';
  /** Which wording of each label (index into the wording lists, modulo their length). */
  wording: number;
  style: LabelStyle;
  /** Field rows; two names on a row share it side by side. */
  rows: FieldName[][];
  /** Where the rows are drawn. */
  area: Rect;
  /** Row pitch multiplier (1 = tight). */
  spacing: number;
  labelFont: FontSpec;
  labelSize: number;
  valueFont: FontSpec;
  valueSize: number;
  /** Labels in upper case. */
  upperLabels: boolean;
  dateFormat: DateFormat;
  /** Header lines; `{country_fr}`, `{country_en}` are replaced. */
  header: { text: string; x: number; y: number; size: number; font: FontSpec; anchor?: 'start' | 'middle' }[];
  portrait: (Rect & { gray: boolean }) | null;
  /** A small faded copy of the portrait (ghost image). */
  ghost: Rect | null;
  /** The document number drawn apart from the rows (big, top right...), with its own label. */
  number: {
    x: number;
    y: number;
    size: number;
    font: FontSpec;
    label: string | null;
    anchor?: 'start' | 'end';
  } | null;
  mrz: { size: number; left: number; bottom: number; lineGap: number } | null;
  background: Background;
  /** Base colours: paper, security print, text. */
  palette: { paper: string; print: string; accent: string; text: string };
  /** Stamps, fingerprint, fiscal stamp, signature, QR code. */
  extras: ('stamp' | 'fingerprint' | 'fiscal' | 'signature' | 'qr' | 'flag' | 'chip')[];
}

const SANS: FontSpec = { family: 'DejaVu Sans', weight: 'normal' };
const SANS_B: FontSpec = { family: 'DejaVu Sans', weight: 'bold' };
const COND: FontSpec = { family: 'DejaVu Sans Condensed', weight: 'normal' };
const COND_B: FontSpec = { family: 'DejaVu Sans Condensed', weight: 'bold' };
const SERIF: FontSpec = { family: 'DejaVu Serif', weight: 'normal' };
const SERIF_B: FontSpec = { family: 'DejaVu Serif', weight: 'bold' };
const MONO_B: FontSpec = { family: 'DejaVu Sans Mono', weight: 'bold' };
const OCRB: FontSpec = { family: 'OCR B', weight: 'normal' };

export const FONTS = { SANS, SANS_B, COND, COND_B, SERIF, SERIF_B, MONO_B, OCRB };

// TD3 data page 125 × 88 mm at 10 px/mm; MRZ pitch 2.54 mm: OCR-B advance is 0.6 em, so 42 px.
const PASSPORTS: LayoutSpec[] = [
  {
    id: 'passport-a',
    kind: 'passport',
    side: 'page',
    heldOut: false,
    width: 1250,
    height: 880,
    lang: 'bi',
    wording: 0,
    style: 'stacked',
    rows: [
      ['surname'],
      ['given_names'],
      ['nationality'],
      ['date_of_birth', 'sex'],
      ['place_of_birth'],
      ['date_of_issue', 'date_of_expiry'],
      ['issuing_authority'],
    ],
    area: { x: 400, y: 150, w: 800, h: 520 },
    spacing: 1,
    labelFont: SANS,
    labelSize: 17,
    valueFont: SANS_B,
    valueSize: 27,
    upperLabels: false,
    dateFormat: 'dots',
    header: [
      { text: '{country_fr} / {country_en}', x: 625, y: 60, size: 32, font: SANS_B, anchor: 'middle' },
      { text: 'PASSEPORT / PASSPORT', x: 625, y: 105, size: 24, font: SANS, anchor: 'middle' },
    ],
    portrait: { x: 60, y: 160, w: 300, h: 390, gray: false },
    ghost: null,
    number: {
      x: 1200,
      y: 180,
      size: 28,
      font: SANS_B,
      label: 'N° du passeport / Passport No',
      anchor: 'end',
    },
    mrz: { size: 42, left: 50, bottom: 40, lineGap: 1.45 },
    background: 'guilloche',
    palette: { paper: '#eef3ea', print: '#9cc3a6', accent: '#2e7d4f', text: '#161616' },
    extras: ['signature'],
  },
  {
    id: 'passport-b',
    kind: 'passport',
    side: 'page',
    heldOut: false,
    width: 1250,
    height: 880,
    lang: 'fr',
    wording: 1,
    style: 'inline',
    rows: [
      ['document_number'],
      ['surname'],
      ['given_names'],
      ['date_of_birth'],
      ['place_of_birth'],
      ['sex'],
      ['nationality'],
      ['date_of_issue'],
      ['date_of_expiry'],
    ],
    area: { x: 60, y: 170, w: 760, h: 520 },
    spacing: 1.05,
    labelFont: COND,
    labelSize: 23,
    valueFont: COND_B,
    valueSize: 28,
    upperLabels: true,
    dateFormat: 'slashes',
    header: [
      { text: '{country_fr}', x: 60, y: 70, size: 36, font: SERIF_B },
      { text: 'PASSEPORT ORDINAIRE', x: 60, y: 120, size: 26, font: SERIF },
    ],
    portrait: { x: 880, y: 160, w: 300, h: 380, gray: true },
    ghost: { x: 960, y: 560, w: 110, h: 140 },
    number: null,
    mrz: { size: 43, left: 40, bottom: 30, lineGap: 1.35 },
    background: 'waves',
    palette: { paper: '#f4efe4', print: '#d8b98c', accent: '#8a5a1c', text: '#1c1408' },
    extras: ['flag'],
  },
  {
    id: 'passport-c',
    kind: 'passport',
    side: 'page',
    heldOut: true,
    width: 1250,
    height: 880,
    lang: 'en',
    wording: 1,
    style: 'table',
    rows: [
      ['surname'],
      ['given_names'],
      ['nationality'],
      ['date_of_birth'],
      ['sex'],
      ['place_of_birth'],
      ['date_of_issue'],
      ['date_of_expiry'],
      ['document_number'],
    ],
    area: { x: 380, y: 165, w: 820, h: 510 },
    spacing: 1.1,
    labelFont: SERIF,
    labelSize: 20,
    valueFont: SANS,
    valueSize: 25,
    upperLabels: false,
    dateFormat: 'month_en',
    header: [
      { text: '{country_en}', x: 380, y: 70, size: 34, font: SANS_B },
      { text: 'PASSPORT', x: 380, y: 115, size: 26, font: SANS_B },
    ],
    portrait: { x: 50, y: 200, w: 290, h: 360, gray: false },
    ghost: null,
    number: null,
    mrz: { size: 40, left: 70, bottom: 55, lineGap: 1.6 },
    background: 'rosette',
    palette: { paper: '#eaf0f7', print: '#a8bfdc', accent: '#1f4f8f', text: '#0f1420' },
    extras: ['signature'],
  },
];

// ID-1 card 85.6 × 54 mm at ~11.7 px/mm (1000 × 630); TD1 MRZ pitch 2.54 mm: ~49.5 px font.
const SAHEL_FRONTS: LayoutSpec[] = [
  {
    id: 'sahel-front-a',
    kind: 'sahel_card',
    side: 'front',
    heldOut: false,
    width: 1000,
    height: 630,
    lang: 'fr',
    wording: 0,
    style: 'stacked',
    rows: [['surname'], ['given_names'], ['date_of_birth', 'sex'], ['place_of_birth'], ['document_number']],
    area: { x: 330, y: 150, w: 640, h: 440 },
    spacing: 1,
    labelFont: SANS,
    labelSize: 17,
    valueFont: SANS_B,
    valueSize: 27,
    upperLabels: false,
    dateFormat: 'dots',
    header: [
      { text: 'CONFÉDÉRATION DES ÉTATS DU SAHEL', x: 500, y: 45, size: 24, font: SANS_B, anchor: 'middle' },
      { text: '{country_fr}', x: 500, y: 80, size: 22, font: SANS, anchor: 'middle' },
      { text: "CARTE NATIONALE D'IDENTITÉ", x: 500, y: 115, size: 22, font: SANS_B, anchor: 'middle' },
    ],
    portrait: { x: 40, y: 150, w: 260, h: 330, gray: false },
    ghost: null,
    number: null,
    mrz: null,
    background: 'guilloche',
    palette: { paper: '#f1efe2', print: '#c9b98a', accent: '#7b5e16', text: '#141414' },
    extras: ['chip', 'signature'],
  },
  {
    id: 'sahel-front-b',
    kind: 'sahel_card',
    side: 'front',
    heldOut: false,
    width: 1000,
    height: 630,
    lang: 'bi',
    wording: 1,
    style: 'inline',
    rows: [['surname'], ['given_names'], ['date_of_birth'], ['place_of_birth'], ['sex'], ['profession']],
    area: { x: 40, y: 215, w: 640, h: 360 },
    spacing: 1,
    labelFont: COND,
    labelSize: 20,
    valueFont: COND_B,
    valueSize: 24,
    upperLabels: false,
    dateFormat: 'slashes',
    header: [
      { text: '{country_fr} - {country_en}', x: 40, y: 50, size: 26, font: SANS_B },
      { text: "CARTE D'IDENTITÉ / IDENTITY CARD", x: 40, y: 90, size: 22, font: SANS },
    ],
    portrait: { x: 720, y: 140, w: 240, h: 300, gray: true },
    ghost: { x: 790, y: 460, w: 90, h: 110 },
    number: { x: 40, y: 170, size: 32, font: MONO_B, label: 'N° / No', anchor: 'start' },
    mrz: null,
    background: 'gradient',
    palette: { paper: '#e9f1f4', print: '#9fc4cf', accent: '#20616f', text: '#0e1a1d' },
    extras: ['flag'],
  },
  {
    id: 'sahel-front-c',
    kind: 'sahel_card',
    side: 'front',
    heldOut: true,
    width: 1000,
    height: 630,
    lang: 'en',
    wording: 1,
    style: 'table',
    rows: [['document_number'], ['surname'], ['given_names'], ['date_of_birth'], ['sex'], ['place_of_birth']],
    area: { x: 300, y: 150, w: 680, h: 420 },
    spacing: 1.1,
    labelFont: SERIF,
    labelSize: 18,
    valueFont: SANS_B,
    valueSize: 24,
    upperLabels: true,
    dateFormat: 'month_en',
    header: [
      { text: 'ALLIANCE OF SAHEL STATES', x: 40, y: 50, size: 26, font: SERIF_B },
      { text: '{country_en} - NATIONAL IDENTITY CARD', x: 40, y: 90, size: 20, font: SERIF },
    ],
    portrait: { x: 40, y: 160, w: 230, h: 290, gray: false },
    ghost: null,
    number: null,
    mrz: null,
    background: 'rosette',
    palette: { paper: '#f5ecec', print: '#d9a8a8', accent: '#8c2424', text: '#190b0b' },
    extras: ['signature'],
  },
];

const SAHEL_BACKS: LayoutSpec[] = [
  {
    id: 'sahel-back-a',
    kind: 'sahel_card',
    side: 'back',
    heldOut: false,
    width: 1000,
    height: 630,
    lang: 'fr',
    wording: 0,
    style: 'stacked',
    rows: [['date_of_issue', 'date_of_expiry'], ['address'], ['issuing_authority']],
    area: { x: 40, y: 40, w: 700, h: 300 },
    spacing: 1,
    labelFont: SANS,
    labelSize: 17,
    valueFont: SANS_B,
    valueSize: 24,
    upperLabels: false,
    dateFormat: 'dots',
    header: [],
    portrait: null,
    ghost: null,
    number: null,
    mrz: { size: 49, left: 45, bottom: 30, lineGap: 1.3 },
    background: 'guilloche',
    palette: { paper: '#f1efe2', print: '#c9b98a', accent: '#7b5e16', text: '#141414' },
    extras: ['qr'],
  },
  {
    id: 'sahel-back-b',
    kind: 'sahel_card',
    side: 'back',
    heldOut: false,
    width: 1000,
    height: 630,
    lang: 'bi',
    wording: 1,
    style: 'inline',
    rows: [['date_of_issue'], ['date_of_expiry'], ['issuing_authority']],
    area: { x: 260, y: 45, w: 700, h: 230 },
    spacing: 1,
    labelFont: COND,
    labelSize: 20,
    valueFont: COND_B,
    valueSize: 22,
    upperLabels: false,
    dateFormat: 'slashes',
    header: [],
    portrait: null,
    ghost: { x: 40, y: 50, w: 150, h: 190 },
    number: null,
    mrz: { size: 51, left: 30, bottom: 45, lineGap: 1.25 },
    background: 'gradient',
    palette: { paper: '#e9f1f4', print: '#9fc4cf', accent: '#20616f', text: '#0e1a1d' },
    extras: ['qr', 'flag'],
  },
  {
    id: 'sahel-back-c',
    kind: 'sahel_card',
    side: 'back',
    heldOut: true,
    width: 1000,
    height: 630,
    lang: 'en',
    wording: 1,
    style: 'table',
    rows: [['date_of_issue'], ['date_of_expiry'], ['address'], ['issuing_authority']],
    area: { x: 40, y: 40, w: 640, h: 270 },
    spacing: 1.05,
    labelFont: SERIF,
    labelSize: 18,
    valueFont: SANS,
    valueSize: 22,
    upperLabels: true,
    dateFormat: 'month_en',
    header: [],
    portrait: null,
    ghost: null,
    number: null,
    mrz: { size: 46, left: 70, bottom: 60, lineGap: 1.5 },
    background: 'rosette',
    palette: { paper: '#f5ecec', print: '#d9a8a8', accent: '#8c2424', text: '#190b0b' },
    extras: ['qr'],
  },
];

// TD2 card 105 × 74 mm at 10 px/mm; MRZ 36 characters at 2.54 mm pitch: 42 px font.
const TD2S: LayoutSpec[] = [
  {
    id: 'td2-a',
    kind: 'td2_card',
    side: 'front',
    heldOut: false,
    width: 1050,
    height: 740,
    lang: 'bi',
    wording: 0,
    style: 'stacked',
    rows: [['surname'], ['given_names'], ['date_of_birth', 'sex'], ['document_number'], ['date_of_expiry']],
    area: { x: 330, y: 120, w: 690, h: 420 },
    spacing: 1,
    labelFont: SANS,
    labelSize: 16,
    valueFont: SANS_B,
    valueSize: 25,
    upperLabels: false,
    dateFormat: 'dots',
    header: [
      { text: '{country_fr} / {country_en}', x: 525, y: 45, size: 26, font: SANS_B, anchor: 'middle' },
      { text: "CARTE D'IDENTITÉ / IDENTITY CARD", x: 525, y: 85, size: 20, font: SANS, anchor: 'middle' },
    ],
    portrait: { x: 40, y: 120, w: 260, h: 330, gray: false },
    ghost: null,
    number: null,
    mrz: { size: 42, left: 50, bottom: 30, lineGap: 1.4 },
    background: 'waves',
    palette: { paper: '#eef0f6', print: '#b2b9d9', accent: '#2b3a86', text: '#11131f' },
    extras: [],
  },
  {
    id: 'td2-b',
    kind: 'td2_card',
    side: 'front',
    heldOut: false,
    width: 1050,
    height: 740,
    lang: 'fr',
    wording: 1,
    style: 'inline',
    rows: [['document_number'], ['surname'], ['given_names'], ['date_of_birth'], ['date_of_expiry']],
    area: { x: 40, y: 140, w: 680, h: 380 },
    spacing: 1,
    labelFont: COND,
    labelSize: 22,
    valueFont: COND_B,
    valueSize: 26,
    upperLabels: true,
    dateFormat: 'month_fr',
    header: [{ text: '{country_fr}', x: 40, y: 60, size: 32, font: SERIF_B }],
    portrait: { x: 760, y: 120, w: 250, h: 320, gray: true },
    ghost: null,
    number: null,
    mrz: { size: 43, left: 35, bottom: 40, lineGap: 1.3 },
    background: 'guilloche',
    palette: { paper: '#f3f0e6', print: '#cfc29a', accent: '#6b5a1e', text: '#17130a' },
    extras: ['flag'],
  },
  {
    id: 'td2-c',
    kind: 'td2_card',
    side: 'front',
    heldOut: true,
    width: 1050,
    height: 740,
    lang: 'en',
    wording: 1,
    style: 'table',
    rows: [['surname'], ['given_names'], ['date_of_birth'], ['sex'], ['document_number'], ['date_of_expiry']],
    area: { x: 320, y: 110, w: 700, h: 420 },
    spacing: 1.05,
    labelFont: SERIF,
    labelSize: 18,
    valueFont: SANS,
    valueSize: 24,
    upperLabels: true,
    dateFormat: 'month_en',
    header: [{ text: '{country_en} - IDENTITY CARD', x: 40, y: 60, size: 28, font: SANS_B }],
    portrait: { x: 40, y: 110, w: 250, h: 320, gray: false },
    ghost: null,
    number: null,
    mrz: { size: 41, left: 60, bottom: 60, lineGap: 1.55 },
    background: 'rosette',
    palette: { paper: '#ecf4ee', print: '#a9d0b4', accent: '#226b3c', text: '#0c1a10' },
    extras: [],
  },
];

// Niger's older paper card: one tall page, no MRZ, issue date only, number on the right.
const NIGER_PAPERS: LayoutSpec[] = [
  {
    id: 'niger-paper-a',
    kind: 'niger_paper',
    side: 'page',
    heldOut: false,
    width: 800,
    height: 1150,
    lang: 'fr',
    wording: 0,
    style: 'inline',
    rows: [
      ['surname'],
      ['given_names'],
      ['date_of_birth'],
      ['place_of_birth'],
      ['sex'],
      ['profession'],
      ['address'],
      ['date_of_issue'],
    ],
    area: { x: 60, y: 600, w: 700, h: 440 },
    spacing: 1.15,
    labelFont: SERIF,
    labelSize: 24,
    valueFont: SERIF_B,
    valueSize: 26,
    upperLabels: false,
    dateFormat: 'dots',
    header: [
      { text: 'RÉPUBLIQUE DU NIGER', x: 400, y: 70, size: 34, font: SERIF_B, anchor: 'middle' },
      { text: 'Fraternité - Travail - Progrès', x: 400, y: 110, size: 20, font: SERIF, anchor: 'middle' },
      { text: "CARTE D'IDENTITÉ NATIONALE", x: 400, y: 170, size: 30, font: SERIF_B, anchor: 'middle' },
    ],
    portrait: { x: 60, y: 230, w: 270, h: 340, gray: true },
    ghost: null,
    number: { x: 740, y: 260, size: 28, font: SERIF_B, label: 'N°', anchor: 'end' },
    mrz: null,
    background: 'paper',
    palette: { paper: '#efe6cf', print: '#d8c79b', accent: '#5a4a22', text: '#1d160a' },
    extras: ['stamp', 'fingerprint', 'fiscal', 'signature'],
  },
  {
    id: 'niger-paper-b',
    kind: 'niger_paper',
    side: 'page',
    heldOut: false,
    width: 820,
    height: 1180,
    lang: 'fr',
    wording: 1,
    style: 'stacked',
    rows: [
      ['surname'],
      ['given_names'],
      ['date_of_birth', 'sex'],
      ['place_of_birth'],
      ['profession'],
      ['date_of_issue'],
    ],
    area: { x: 60, y: 330, w: 450, h: 620 },
    spacing: 1.05,
    labelFont: SANS,
    labelSize: 19,
    valueFont: SANS_B,
    valueSize: 26,
    upperLabels: true,
    dateFormat: 'month_fr',
    header: [
      { text: 'REPUBLIQUE DU NIGER', x: 60, y: 70, size: 32, font: SANS_B },
      { text: "CARTE NATIONALE D'IDENTITE", x: 60, y: 120, size: 26, font: SANS },
    ],
    portrait: { x: 540, y: 330, w: 230, h: 290, gray: true },
    ghost: null,
    number: { x: 770, y: 230, size: 30, font: SANS_B, label: 'Numéro', anchor: 'end' },
    mrz: null,
    background: 'paper',
    palette: { paper: '#f2ecde', print: '#cdbf9f', accent: '#3b5b3b', text: '#121212' },
    extras: ['stamp', 'fiscal', 'signature', 'fingerprint'],
  },
  {
    id: 'niger-paper-c',
    kind: 'niger_paper',
    side: 'page',
    heldOut: true,
    width: 780,
    height: 1120,
    lang: 'fr',
    wording: 2,
    style: 'table',
    rows: [
      ['surname'],
      ['given_names'],
      ['date_of_birth'],
      ['place_of_birth'],
      ['sex'],
      ['address'],
      ['date_of_issue'],
    ],
    area: { x: 50, y: 560, w: 690, h: 420 },
    spacing: 1.2,
    labelFont: COND,
    labelSize: 22,
    valueFont: COND_B,
    valueSize: 25,
    upperLabels: false,
    dateFormat: 'dashes',
    header: [
      { text: 'République du Niger', x: 390, y: 65, size: 32, font: COND_B, anchor: 'middle' },
      { text: "Carte d'Identité", x: 390, y: 115, size: 30, font: COND_B, anchor: 'middle' },
    ],
    portrait: { x: 255, y: 160, w: 270, h: 330, gray: true },
    ghost: null,
    number: { x: 730, y: 530, size: 26, font: COND_B, label: 'N° de la carte', anchor: 'end' },
    mrz: null,
    background: 'paper',
    palette: { paper: '#ece3d3', print: '#c4b28d', accent: '#4a2f1a', text: '#1a120a' },
    extras: ['stamp', 'fingerprint', 'signature'],
  },
];

export const LAYOUTS: LayoutSpec[] = [
  ...PASSPORTS,
  ...SAHEL_FRONTS,
  ...SAHEL_BACKS,
  ...TD2S,
  ...NIGER_PAPERS,
];

export function layoutById(id: string): LayoutSpec {
  const l = LAYOUTS.find((x) => x.id === id);
  if (!l) throw new RangeError(`unknown synthetic layout: ${id}`);
  return l;
}

/** Layouts of a kind and side, optionally only the tuning or only the held-out ones. */
export function layoutsFor(
  kind: DocumentKind,
  side: Side,
  split: 'tuning' | 'heldout' | 'all' = 'all',
): LayoutSpec[] {
  return LAYOUTS.filter(
    (l) =>
      l.kind === kind &&
      l.side === side &&
      (split === 'all' || (split === 'heldout' ? l.heldOut : !l.heldOut)),
  );
}
