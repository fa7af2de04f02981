import { describe, expect, it } from 'vitest';
import { fitMrzName, namesMatch, splitMrzName, transliterateToMrz } from '../../src/index.ts';

describe('transliterateToMrz (ICAO 9303 part 3)', () => {
  it.each([
    ['Eriksson', 'ERIKSSON'],
    ['Anna María', 'ANNA<MARIA'],
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
    ['accents and case', 'Anna María', 'ANNA<MARIA'],
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
    ['components shortened to initials', 'Anna Maria', 'ANNA<M'],
    ['surrounding fillers', 'Eriksson', '<<ERIKSSON<<<'],
  ])('matches: %s', (_label, printed, mrz) => {
    expect(namesMatch(printed, mrz)).toBe(true);
  });

  it.each([
    ['another name', 'Dupont', 'DUPOND'],
    ['a letter more in the MRZ', 'Anna', 'ANNAS'],
    ['order of names', 'Anna Maria', 'MARIA<ANNA'],
    ['empty MRZ form', 'Anna', ''],
    ['empty printed form', '', 'ANNA'],
    ['Ü is not I', 'Müller', 'MILLER'],
  ])('differs: %s', (_label, printed, mrz) => {
    expect(namesMatch(printed, mrz)).toBe(false);
  });

  it('without truncation, a missing given name is a difference', () => {
    expect(namesMatch('Anna Maria', 'ANNA', { truncated: false })).toBe(false);
    expect(namesMatch('Anna Maria', 'ANNA<M', { truncated: false })).toBe(false);
    expect(namesMatch('Anna Maria', 'ANNA<MARIA', { truncated: false })).toBe(true);
    expect(namesMatch('Müller', 'MUELLER', { truncated: false })).toBe(true);
  });

  it('two empty names match', () => {
    expect(namesMatch('', '<<<')).toBe(true);
  });
});

describe('MRZ name field', () => {
  it('splits SURNAME<<GIVEN<NAMES with fillers removed', () => {
    expect(splitMrzName('ERIKSSON<<ANNA<MARIA<<<<<<<<')).toEqual({
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
    });
    expect(splitMrzName('VAN<DER<BERG<<JAN<<<')).toEqual({ surname: 'VAN DER BERG', givenNames: 'JAN' });
    expect(splitMrzName('MONONYM<<<<<<<')).toEqual({ surname: 'MONONYM', givenNames: '' });
  });

  it('fits and pads to the width', () => {
    expect(fitMrzName('Eriksson', 'Anna Maria', 30)).toBe('ERIKSSON<<ANNA<MARIA<<<<<<<<<<');
    expect(fitMrzName('Eriksson', 'Anna Maria', 12)).toBe('ERIKSSON<<AN');
    expect(fitMrzName('Eriksson', '', 10)).toBe('ERIKSSON<<');
  });
});
