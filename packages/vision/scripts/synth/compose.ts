import type { Holder } from './content.ts';
import { COUNTRY_NAMES } from './content.ts';
import type { FillerGlyph } from './filler-glyph.ts';
import type { DateFormat, FieldName, LayoutSpec, Rect } from './layouts.ts';
import { type FontSpec, textWidth } from './measure.ts';
import type { Rng } from './random.ts';

/**
 * Lays one holder's data out on a template: every text item with its position, font and, for
 * field values, the field it carries (so that the truth knows each value's box). Small random
 * shifts of position and size per document, so that no two documents of a layout are pixel twins.
 */

export interface TextItem {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  size: number;
  font: FontSpec;
  fill: string;
  anchor: 'start' | 'middle' | 'end';
  /** The field whose value this is (`mrz_1`... for MRZ lines). */
  field?: string;
  /** Measured advance width. */
  width: number;
  /** MRZ lines only, an evaluation option: the fillers drawn with this shape (filler-glyph.ts). */
  fillerGlyph?: FillerGlyph;
}

export interface Drawing {
  width: number;
  height: number;
  items: TextItem[];
  portrait: (Rect & { gray: boolean }) | null;
  ghost: Rect | null;
  /** The values printed on this side, as the reader should return them. */
  printed: Partial<Record<FieldName, string>>;
}

type Wording = { fr: string[]; en: string[] };

/** Label wordings per field; a layout picks one by its `wording` index. */
const LABELS: Record<FieldName, Wording> = {
  surname: { fr: ['Nom', 'Nom de famille', 'Nom'], en: ['Surname', 'Surname', 'Last name'] },
  given_names: { fr: ['Prénoms', 'Prénom(s)', 'Prénoms'], en: ['Given names', 'Given names', 'First names'] },
  date_of_birth: {
    fr: ['Date de naissance', 'Né(e) le', 'Date de naissance'],
    en: ['Date of birth', 'Date of birth', 'Birth date'],
  },
  place_of_birth: {
    fr: ['Lieu de naissance', 'Lieu de naissance', 'à'],
    en: ['Place of birth', 'Place of birth', 'Born in'],
  },
  sex: { fr: ['Sexe', 'Sexe', 'Sexe'], en: ['Sex', 'Sex', 'Sex'] },
  nationality: {
    fr: ['Nationalité', 'Nationalité', 'Nationalité'],
    en: ['Nationality', 'Nationality', 'Nationality'],
  },
  document_number: {
    fr: ['N° de la carte', 'Numéro', 'N° CNI'],
    en: ['Card No', 'Card number', 'ID number'],
  },
  date_of_issue: {
    fr: ['Date de délivrance', 'Délivrée le', 'Fait le'],
    en: ['Date of issue', 'Issue date', 'Issued on'],
  },
  date_of_expiry: {
    fr: ["Date d'expiration", "Valable jusqu'au", "Date d'expiration"],
    en: ['Date of expiry', 'Expiry date', 'Valid until'],
  },
  issuing_authority: {
    fr: ['Autorité', 'Délivrée par', 'Autorité'],
    en: ['Authority', 'Issuing authority', 'Authority'],
  },
  address: { fr: ['Adresse', 'Domicile', 'Domicile'], en: ['Address', 'Address', 'Address'] },
  profession: {
    fr: ['Profession', 'Profession', 'Profession'],
    en: ['Occupation', 'Profession', 'Occupation'],
  },
};

/** Passport number labels replace the card's. */
const PASSPORT_NUMBER: Wording = {
  fr: ['N° du passeport', 'N° de passeport', 'Passeport N°'],
  en: ['Passport No', 'Passport number', 'Passport No.'],
};

const MONTHS_FR = ['JANV', 'FEVR', 'MARS', 'AVR', 'MAI', 'JUIN', 'JUIL', 'AOUT', 'SEPT', 'OCT', 'NOV', 'DEC'];
const MONTHS_EN = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

export function formatDate(isoDate: string, format: DateFormat): string {
  const [y, m, d] = isoDate.split('-') as [string, string, string];
  const mi = Number(m) - 1;
  switch (format) {
    case 'dots':
      return `${d}.${m}.${y}`;
    case 'slashes':
      return `${d}/${m}/${y}`;
    case 'dashes':
      return `${d}-${m}-${y}`;
    case 'spaces':
      return `${d} ${m} ${y}`;
    case 'month_fr':
      return `${d} ${MONTHS_FR[mi]} ${y}`;
    case 'month_en':
      return `${d} ${MONTHS_EN[mi]} ${y}`;
    case 'month_bi':
      return `${d} ${MONTHS_EN[mi]}/${MONTHS_FR[mi]} ${y.slice(2)}`;
  }
}

function label(spec: LayoutSpec, field: FieldName): string {
  const w = field === 'document_number' && spec.kind === 'passport' ? PASSPORT_NUMBER : LABELS[field];
  const pickOne = (list: string[]) => list[spec.wording % list.length]!;
  const text =
    spec.lang === 'fr'
      ? pickOne(w.fr)
      : spec.lang === 'en'
        ? pickOne(w.en)
        : `${pickOne(w.fr)} / ${pickOne(w.en)}`;
  return spec.upperLabels ? text.toUpperCase() : text;
}

/** The printed value of a field and the value the reader should return for it. */
function value(h: Holder, field: FieldName, format: DateFormat): { shown: string; truth: string } | null {
  switch (field) {
    case 'surname':
      return { shown: h.surname, truth: h.surname };
    case 'given_names':
      return { shown: h.givenNames, truth: h.givenNames };
    case 'date_of_birth':
      return { shown: formatDate(h.birthDate, format), truth: h.birthDate };
    case 'date_of_issue':
      return { shown: formatDate(h.issueDate, format), truth: h.issueDate };
    case 'date_of_expiry':
      return h.expiryDate ? { shown: formatDate(h.expiryDate, format), truth: h.expiryDate } : null;
    case 'place_of_birth':
      return { shown: h.placeOfBirth, truth: h.placeOfBirth };
    case 'sex':
      return { shown: h.sex, truth: h.sex };
    case 'nationality':
      return { shown: h.nationality, truth: h.nationality };
    case 'document_number':
      return { shown: h.documentNumber, truth: h.documentNumber };
    case 'issuing_authority':
      return { shown: h.authority, truth: h.authority };
    case 'address':
      return { shown: h.address, truth: h.address };
    case 'profession':
      return { shown: h.profession, truth: h.profession };
  }
}

async function item(
  text: string,
  x: number,
  y: number,
  size: number,
  font: FontSpec,
  fill: string,
  anchor: 'start' | 'middle' | 'end' = 'start',
  field?: string,
): Promise<TextItem> {
  return { text, x, y, size, font, fill, anchor, field, width: await textWidth(text, font, size) };
}

export async function compose(spec: LayoutSpec, h: Holder, r: Rng): Promise<Drawing> {
  const items: TextItem[] = [];
  const printed: Partial<Record<FieldName, string>> = {};
  const jitter = (v: number, amount: number) => v + r.range(-amount, amount);
  const scaleSize = r.range(0.95, 1.05);
  const names = COUNTRY_NAMES[h.country] ?? COUNTRY_NAMES.NER!;
  const ink = spec.palette.text;

  for (const line of spec.header) {
    const text = line.text.replace('{country_fr}', names.fr).replace('{country_en}', names.en);
    items.push(
      await item(text, line.x, line.y, line.size, line.font, spec.palette.accent, line.anchor ?? 'start'),
    );
  }

  const labelSize = spec.labelSize * scaleSize;
  const valueSize = spec.valueSize * scaleSize;
  const dx = jitter(0, 6);
  const dy = jitter(0, 5);
  const rowPitch =
    spec.style === 'stacked'
      ? (labelSize * 1.25 + valueSize * 1.3) * spec.spacing
      : Math.max(labelSize, valueSize) * 1.75 * spec.spacing;
  // Table layouts put values at one x past the longest label.
  let tableX = 0;
  if (spec.style === 'table') {
    for (const row of spec.rows)
      for (const f of row)
        tableX = Math.max(tableX, await textWidth(label(spec, f), spec.labelFont, labelSize));
    tableX += labelSize * 1.2;
  }
  let y = spec.area.y + dy;
  for (const row of spec.rows) {
    const cellW = spec.area.w / row.length;
    for (const [k, field] of row.entries()) {
      const v = value(h, field, spec.dateFormat);
      if (!v) continue;
      printed[field] = v.truth;
      const x = spec.area.x + dx + k * cellW;
      const l = label(spec, field);
      if (spec.style === 'stacked') {
        items.push(await item(l, x, y + labelSize, labelSize, spec.labelFont, ink));
        items.push(
          await item(
            v.shown,
            x,
            y + labelSize * 1.25 + valueSize,
            valueSize,
            spec.valueFont,
            ink,
            'start',
            field,
          ),
        );
      } else if (spec.style === 'inline') {
        const lab = `${l} : `;
        const li = await item(lab, x, y + valueSize, labelSize, spec.labelFont, ink);
        items.push(li);
        items.push(
          await item(v.shown, x + li.width, y + valueSize, valueSize, spec.valueFont, ink, 'start', field),
        );
      } else {
        items.push(await item(l, x, y + valueSize, labelSize, spec.labelFont, ink));
        items.push(
          await item(v.shown, x + tableX, y + valueSize, valueSize, spec.valueFont, ink, 'start', field),
        );
      }
    }
    y += rowPitch;
  }

  if (spec.number) {
    const n = spec.number;
    const size = n.size * scaleSize;
    const anchor = n.anchor ?? 'start';
    const shown = h.documentNumber;
    const numberItem = await item(shown, n.x + dx, n.y + dy, size, n.font, ink, anchor, 'document_number');
    if (n.label) {
      // The label sits just before the number on the same baseline.
      const lab = `${n.label} `;
      const lw = await textWidth(lab, spec.labelFont, size * 0.75);
      const numberLeft = anchor === 'end' ? numberItem.x - numberItem.width : numberItem.x;
      if (anchor === 'end') {
        items.push(await item(lab, numberLeft - lw, n.y + dy, size * 0.75, spec.labelFont, ink));
      } else {
        items.push(await item(lab, n.x + dx, n.y + dy, size * 0.75, spec.labelFont, ink));
        numberItem.x += lw;
      }
    }
    items.push(numberItem);
    printed.document_number = h.documentNumber;
  }

  if (spec.mrz && h.mrz) {
    const m = spec.mrz;
    // Layout sizes assume OCR-B's nominal advance of 0.6 em (2.54 mm pitch); use the real one.
    const ocrb = { family: 'OCR B', weight: 'normal' } as const;
    const size = ((m.size * 0.6) / ((await textWidth('<', ocrb, 100)) / 100)) * r.range(0.97, 1.03);
    const pitch = size * m.lineGap;
    const left = jitter(m.left, 6);
    const lastBaseline = spec.height - jitter(m.bottom, 5) - size * 0.25;
    for (const [i, line] of h.mrz.entries()) {
      const by = lastBaseline - (h.mrz.length - 1 - i) * pitch;
      items.push(await item(line, left, by, size, ocrb, '#111', 'start', `mrz_${i + 1}`));
    }
  }

  return {
    width: spec.width,
    height: spec.height,
    items,
    portrait: spec.portrait,
    ghost: spec.ghost,
    printed,
  };
}

/** The box of a text item in document pixels: [x0, y0, x1, y1] (ascender to descender). */
export function itemBox(t: TextItem): [number, number, number, number] {
  const x0 = t.anchor === 'start' ? t.x : t.anchor === 'end' ? t.x - t.width : t.x - t.width / 2;
  return [x0, t.y - t.size * 0.8, x0 + t.width, t.y + t.size * 0.22];
}
