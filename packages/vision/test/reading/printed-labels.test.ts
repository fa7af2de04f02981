import { describe, expect, it } from 'vitest';
import { readPrintedFields } from '../../src/viz/fields.ts';
import { line } from './ocr-line.ts';

/**
 * Label handling of the printed zone on OCR lines as the recogniser returns them from the
 * synthetic benchmark's layouts: misread bilingual labels, "(S)" plural marks, values in a
 * column to the right, numbers without a field label.
 */

describe('printed labels', () => {
  it('strips the other language label even misread (rn read as m, spaces merged)', () => {
    const f = readPrintedFields(
      [
        line('Nom / Sumame DIALLO', 100),
        line('Prenom(s) / Given names:AMINATA', 140),
        line('Ne(e)le/Dateofbirth:07/10/1996', 180),
      ],
      [],
    );
    expect(f.surname).toBe('DIALLO');
    expect(f.given_names).toBe('AMINATA');
    expect(f.date_of_birth).toBe('1996-10-07');
  });

  it('does not eat the first letter of a value glued to an exact label', () => {
    const f = readPrintedFields(
      [line('Nom de famile SurnameADAMOU', 100), line('Prenom(s) Given namesADAMA', 140)],
      [],
    );
    expect(f.surname).toBe('ADAMOU');
    expect(f.given_names).toBe('ADAMA');
  });

  it('drops what is left of a misread mixed-case label before a name in capitals', () => {
    expect(readPrintedFields([line('Nom de famie SumameZERBO', 100)], []).surname).toBe('ZERBO');
    const g = readPrintedFields([line('Nom de fallesunae DIALLO SOW', 140)], []);
    expect(g.surname).toBe('DIALLO SOW');
    // A name whose first letters' case was misread is kept whole.
    expect(readPrintedFields([line('PRENOM(S)AiSSATA MARIETOU', 100)], []).given_names).toBe(
      'AISSATA MARIETOU',
    );
    expect(readPrintedFields([line('Nom de famille/Surname:MouMOUNI', 100)], []).surname).toBe('MOUMOUNI');
    // A name printed in mixed case is kept whole.
    expect(readPrintedFields([line('Prenom(s): Aminata', 100)], []).given_names).toBe('AMINATA');
  });

  it('reads the name under its label when the label line ends in a misread label word', () => {
    const f = readPrintedFields(
      [
        line('Nom/Surnan', 100),
        line('N°du', 100, 400, 48),
        line('TOURE', 125),
        line('Prenoms/Givennan', 160),
        line('RAKIETOU', 185),
      ],
      [],
    );
    expect(f.surname).toBe('TOURE');
    expect(f.given_names).toBe('RAKIETOU');
  });

  it('finds a long label whose words were merged or split', () => {
    // The misread label word glued to the name is no label line: the next label line below is no name.
    expect(
      readPrintedFields([line('Nomde famill/SsuameBA', 100), line('NeeDatfbith7198', 125)], []).surname,
    ).toBe('BA');
  });

  it('takes the value after the last label when the first one is cut', () => {
    const f = readPrintedFields([line('Nom de famil / Surname: MAHAMADOU', 100)], []);
    expect(f.surname).toBe('MAHAMADOU');
  });

  it('reads a value under a label ending in (S)', () => {
    const f = readPrintedFields([line('PRENOM(S)', 100), line('HAROUNA', 125)], []);
    expect(f.given_names).toBe('HAROUNA');
  });

  it('reads a value in a column right of its label', () => {
    const f = readPrintedFields(
      [line('Date de delivrance', 100, 100, 200), line('18.10.2016', 101, 420, 120)],
      [],
    );
    expect(f.date_of_issue).toBe('2016-10-18');
  });

  it('reads the number after a bare N° and a 17-digit number on its own', () => {
    expect(readPrintedFields([line('N° 28869JL91', 100)], []).document_number).toBe('28869JL91');
    expect(readPrintedFields([line('NNo46793938918298840', 100)], []).document_number).toBe(
      '46793938918298840',
    );
    // The rest of a misread "N°/No" mark glued before a 17-digit number.
    expect(readPrintedFields([line('N7N58845343049522570', 100)], []).document_number).toBe(
      '58845343049522570',
    );
    expect(readPrintedFields([line('Card No: 1NO80104169213131493', 100)], []).document_number).toBe(
      '80104169213131493',
    );
    // A word after "No" is no number.
    expect(readPrintedFields([line('No comment 12', 100)], []).document_number).toBeNull();
  });
});

describe('labels and values read poorly', () => {
  it('finds a short label whose words were read run together', () => {
    const f = readPrintedFields([line('DELIVREELE', 100), line('17 NOV 2026', 125)], []);
    expect(f.date_of_issue).toBe('2026-11-17');
    expect(readPrintedFields([line('NE(E） LE:30/01/1991', 100)], []).date_of_birth).toBe('1991-01-30');
  });

  it('looks right of the label when the text after it is no date', () => {
    const f = readPrintedFields(
      [line('Date de delivrance : 1', 100, 100, 300), line('15.09.2015', 102, 410, 120)],
      [],
    );
    expect(f.date_of_issue).toBe('2015-09-15');
  });

  it('leaves a value under another label to that label', () => {
    // Two labels side by side, each date under its own: the expiry date, a little lower than the
    // issue label and right of it, is not the issue date in a column.
    const f = readPrintedFields(
      [
        line('Date de delivrance', 100, 100, 200),
        line("Date d'expiration", 100, 400, 200),
        line('03.02.2020', 109, 100, 120),
        line('02.02.2025', 109, 400, 120),
      ],
      [],
    );
    expect(f.date_of_issue).toBe('2020-02-03');
    expect(f.date_of_expiry).toBe('2025-02-02');
  });

  it('takes no line holding digits for a name', () => {
    const f = readPrintedFields(
      [
        line('Nom/Sumame', 100, 100, 110),
        line('seport/Passport NoVS8222403', 102, 330, 300),
        line("N'DIAYE", 125),
      ],
      [],
    );
    expect(f.surname).toBe("N'DIAYE");
  });

  it('reads a document number glued to its label', () => {
    expect(readPrintedFields([line('seport/Passport NoZX5980714', 100)], []).document_number).toBe(
      'ZX5980714',
    );
    // A word after the label is no number.
    expect(readPrintedFields([line('Passport Notes 12', 100)], []).document_number).toBeNull();
  });

  it('strips a misread label glued to a document number', () => {
    expect(readPrintedFields([line('N°du passeport/Pssport NoVB7390082', 100)], []).document_number).toBe(
      'VB7390082',
    );
  });

  it('reads a value after a colon whose label is garbled, when one field is clearly meant', () => {
    const f = readPrintedFields(
      [line('NDEP558POT:030544403', 100), line('NOMDETAMLE:BAMBA', 120), line('PRENCMS: ABDOULAYE', 140)],
      [],
    );
    expect(f.document_number).toBe('030544403');
    expect(f.surname).toBe('BAMBA');
    expect(f.given_names).toBe('ABDOULAYE');
    // Too far from any label, or as near to several fields' labels (dates of birth, issue, expiry).
    const g = readPrintedFields([line('MOHDEHWE:SAWADOGO', 100), line('DATE DE:12.04.1987', 120)], []);
    expect(g.surname).toBeNull();
    expect(g.date_of_birth).toBeNull();
  });
  it("takes a mixed-case line near one field's bilingual label for that label", () => {
    const f = readPrintedFields(
      [line('NomSumme', 100), line('DOUMBIA', 120), line('PresGivennnes', 140), line('MAIMOUNA', 160)],
      [],
    );
    expect(f.surname).toBe('DOUMBIA');
    expect(f.given_names).toBe('MAIMOUNA');
    // A label cut short by a stamp, its date in a box of its own to the right.
    const cut = readPrintedFields(
      [line('Date de deliva', 100, 100, 160), line('23.05.2023..', 104, 270, 140)],
      [],
    );
    expect(cut.date_of_issue).toBe('2023-05-23');
    // Too short a start to tell the birth, issue and expiry labels apart.
    expect(
      readPrintedFields([line('Date de d', 100, 100, 110), line('23.05.2023', 104, 220, 120)], [])
        .date_of_issue,
    ).toBeNull();
    // Names read run together beside a misread label are left unread (they would differ from the MRZ's).
    const glued = readPrintedFields(
      [line('Prenon', 100), line('ISSOUFFRANCOIS', 120), line('PRENOMISI:HADIZAMARIETOU', 140)],
      [],
    );
    expect(glued.given_names).toBeNull();
    // A label found by its first word, the rest misread: the name is under it.
    expect(readPrintedFields([line('NOM DEFAMAE', 100), line('SALIFOU', 120)], []).surname).toBe('SALIFOU');
    expect(readPrintedFields([line('NOM DE FAMILLE BA', 100)], []).surname).toBe('BA');
    // A line in capitals is a value, however near a label it reads.
    expect(readPrintedFields([line('NOMSUMME', 100), line('DOUMBIA', 120)], []).surname).toBeNull();
  });
});

describe('dates without a legible label', () => {
  it('reads the dates after the colons of illegible labels by their order', () => {
    const f = readPrintedFields(
      [line('OL:24/02/1953', 100), line('DLRELE:17/03/2023', 120), line('VALABLEF5Q0AU:16/03/2028', 140)],
      [],
    );
    expect(f.date_of_birth).toBe('1953-02-24');
    expect(f.date_of_issue).toBe('2023-03-17');
  });

  it('tells birth, issue and expiry apart by their order in time', () => {
    const f = readPrintedFields(
      [
        line('hewoa/com', 100),
        line('24.02.1953', 120),
        line('o/0', 140),
        line('16.03.2028', 160, 300),
        line('17.03.2023', 160),
      ],
      [],
    );
    expect(f.date_of_birth).toBe('1953-02-24');
    expect(f.date_of_issue).toBe('2023-03-17');
    expect(f.date_of_expiry).toBe('2028-03-16');
  });

  it('assigns nothing from two dates, or from dates not spaced as a life and a validity', () => {
    const two = readPrintedFields([line('24.02.1953', 120), line('16.03.2028', 160)], []);
    expect(two.date_of_birth).toBeNull();
    expect(two.date_of_expiry).toBeNull();
    const close = readPrintedFields(
      [line('24.02.2019', 120), line('17.03.2023', 140), line('16.03.2028', 160)],
      [],
    );
    expect(close.date_of_birth).toBeNull();
  });

  it('keeps out of the way when a labelled date disagrees with the order', () => {
    const f = readPrintedFields(
      [
        line('Date of expiry', 100),
        line('17.03.2023', 120),
        line('24.02.1953', 140, 400),
        line('16.03.2028', 160, 400),
      ],
      [],
    );
    expect(f.date_of_expiry).toBe('2023-03-17');
    expect(f.date_of_birth).toBeNull();
  });
});
