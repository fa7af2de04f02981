import type { Half } from '../fixture-split.ts';
import { drawColourCard } from './colour-card.ts';
import { drawPaperCard } from './paper-card.ts';
import { seededRng, seedOf } from './rng.ts';
import { genuineSources } from './sources.ts';
import { synthSource, synthSources } from './synth-sources.ts';
import type { GenuineSource } from './types.ts';

/**
 * A fresh draw of generated genuine sources, named by `tag`: `cards` Niger paper cards and as
 * many synthetic colour cards, and `synth` synthetic documents of every layout (the holdout's
 * layout rule). No fixture page: the draw is out of sample as long as its tag was never used to
 * tune, and its size is free, which the halves' 34–42 sources are not.
 */
export async function freshSources(
  tag: string,
  cards: number,
  synth: number,
  opts: DrawOptions = {},
): Promise<GenuineSource[]> {
  const out = await drawnCards(tag, cards, opts);
  for (let i = 0; i < synth; i++) out.push(await synthSource('holdout', i, tag, opts));
  return out;
}

/**
 * `densePrint`: the colour cards and synthetic documents printed with fine lines over the whole
 * page, as real passports and ID cards are (security-print.ts). Niger's paper card stays as the
 * spec draws it, with few colours and little print.
 */
export interface DrawOptions {
  densePrint?: boolean;
}

/** `count` Niger paper cards and as many synthetic colour cards, each seeded by its name under `tag`. */
export async function drawnCards(
  tag: string,
  count: number,
  opts: DrawOptions = {},
): Promise<GenuineSource[]> {
  const out: GenuineSource[] = [];
  for (let i = 0; i < count; i++) {
    const paper = `paper-card-${tag}-${i}`;
    out.push(await drawPaperCard(seededRng(seedOf(paper)), paper));
    const colour = `colour-card-${tag}-${i}`;
    out.push(await drawColourCard(seededRng(seedOf(colour)), colour, { dense: opts.densePrint === true }));
  }
  return out;
}

/**
 * The genuine sources of one run: a fresh draw when `draw` names one, else the half's fixture
 * pages, `drawn` drawn cards of each kind and `synth` synthetic documents (the halves' rule).
 */
export async function corpusSources(
  fixturesDir: string,
  half: Half,
  opts: { draw?: string; drawn: number; synth: number } & DrawOptions,
): Promise<GenuineSource[]> {
  if (opts.draw) return freshSources(opts.draw, opts.drawn, opts.synth, opts);
  return [
    ...(await genuineSources(fixturesDir, half, opts.drawn)),
    ...(opts.synth ? await synthSources(half, opts.synth) : []),
  ];
}

/** `--sources`: whether a source's name contains one of the given parts (no parts: every source). */
export function sourcePicked(name: string, parts: readonly string[] | undefined): boolean {
  return !parts || parts.some((part) => name.includes(part));
}
