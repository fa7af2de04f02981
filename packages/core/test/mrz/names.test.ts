import { describe, expect, it } from 'vitest';
import { fitMrzName, namesMatch, splitMrzName, transliterateToMrz } from '../../src/index.ts';

describe('transliterateToMrz (ICAO 9303 part 3)', () => {
  it.each([
    ['Adjovi', 'ADJOVI'],
    ['Afi Mawuéna', 'AFI<MAWUENA'],
    ['Müller', 'MUELLER'],
    ['Jäger', 'JAEGER'],
    ['Øster Ålund', 'OESTER<AALUND'],
    ['Peña', 'PENA'],
    ['Straße', 'STRASSE'],
    ['Jean-Pierre', 'JEAN<PIERRE'],
    ["D'Artagnan", 'DARTAGNAN'],
    ['Œuvray', 'OEUVRAY'],
    ['Þórsdóttir', 'THORSDOTTIR'],
    ['Çelik', 'CELIK'],
    ['Ould  Mohamed ', 'OULD<MOHAMED'],
    ['Aïssatou', 'AISSATOU'],
    ['Ndèye Fatou', 'NDEYE<FATOU'],
  ])('%s → %s', (printed, mrz) => {
    expect(transliterateToMrz(printed)).toBe(mrz);
  });
});

describe('namesMatch', () => {
  it.each([
    ['accents and case', 'Afi Mawuéna', 'AFI<MAWUENA'],
    ['spaces instead of fillers', 'anna maria', 'ANNA MARIA'],
    ['Ä → AE', 'Jäger', 'JAEGER'],
    ['Ä → A', 'Jäger', 'JAGER'],
    ['Ü → UE', 'Müller', 'MUELLER'],
    ['Ü → U', 'Müller', 'MULLER'],
    ['Ö → OE', 'Böhm', 'BOEHM'],
    ['Ñ → N', 'Peña', 'PENA'],
    ['ß → SS', 'Straße', 'STRASSE'],
    ['hyphen → <', 'Jean-Pierre', 'JEAN<PIERRE'],
    ['hyphen squeezed out', 'Jean-Pierre', 'JEANPIERRE'],
    ['apostrophe omitted (ICAO)', "D'Artagnan", 'DARTAGNAN'],
    ['apostrophe → <', "D'Artagnan", 'D<ARTAGNAN'],
    ['typographic apostrophe', 'N’Diaye', 'NDIAYE'],
    ['truncated at the end of the field', 'Fatimata Zahra Bintou', 'FATI'],
    ['truncated in a two-letter transliteration', 'Aminata Müller', 'AMINATA<MU'],
    ['components shortened to initials', 'Afi Mawuena', 'AFI<M'],
    ['surrounding fillers', 'Adjovi', '<<ADJOVI<<<'],
  ])('matches: %s', (_label, printed, mrz) => {
    expect(namesMatch(printed, mrz)).toBe(true);
  });

  it.each([
    ['another name', 'Dupont', 'DUPOND'],
    ['a letter more in the MRZ', 'Afi', 'AFIS'],
    ['order of names', 'Afi Mawuena', 'MAWUENA<AFI'],
    ['empty MRZ form', 'Afi', ''],
    ['empty printed form', '', 'AFI'],
    ['Ü is not I', 'Müller', 'MILLER'],
  ])('differs: %s', (_label, printed, mrz) => {
    expect(namesMatch(printed, mrz)).toBe(false);
  });

  it('without truncation, a missing given name is a difference', () => {
    expect(namesMatch('Afi Mawuena', 'AFI', { truncated: false })).toBe(false);
    expect(namesMatch('Afi Mawuena', 'AFI<M', { truncated: false })).toBe(false);
    expect(namesMatch('Afi Mawuena', 'AFI<MAWUENA', { truncated: false })).toBe(true);
    expect(namesMatch('Müller', 'MUELLER', { truncated: false })).toBe(true);
  });

  it('two empty names match', () => {
    expect(namesMatch('', '<<<')).toBe(true);
  });
});

describe('MRZ name field', () => {
  it('splits SURNAME<<GIVEN<NAMES with fillers removed', () => {
    expect(splitMrzName('ADJOVI<<AFI<MAWUENA<<<<<<<<')).toEqual({
      surname: 'ADJOVI',
      givenNames: 'AFI MAWUENA',
    });
    expect(splitMrzName('VAN<DER<BERG<<JAN<<<')).toEqual({ surname: 'VAN DER BERG', givenNames: 'JAN' });
    expect(splitMrzName('MONONYM<<<<<<<')).toEqual({ surname: 'MONONYM', givenNames: '' });
  });

  it('fits and pads to the width', () => {
    expect(fitMrzName('Adjovi', 'Afi Mawuena', 30)).toBe('ADJOVI<<AFI<MAWUENA<<<<<<<<<<<');
    expect(fitMrzName('Adjovi', 'Afi Mawuena', 10)).toBe('ADJOVI<<AF');
    expect(fitMrzName('Adjovi', '', 8)).toBe('ADJOVI<<');
  });
});
