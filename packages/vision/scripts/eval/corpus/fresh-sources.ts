import { drawColourCard } from './colour-card.ts';
import { drawPaperCard } from './paper-card.ts';
import { seededRng, seedOf } from './rng.ts';
import { synthSource } from './synth-sources.ts';
import type { GenuineSource } from './types.ts';

/**
 * A fresh draw of generated genuine sources, named by `tag`: `cards` Niger paper cards and as
 * many synthetic colour cards, and `synth` synthetic documents of every layout (the holdout's
 * layout rule). No fixture page: the draw is out of sample as long as its tag was never used to
 * tune, and its size is free, which the halves' 34–42 sources are not.
 */
export async function freshSources(tag: string, cards: number, synth: number): Promise<GenuineSource[]> {
  const out = await drawnCards(tag, cards);
  for (let i = 0; i < synth; i++) out.push(await synthSource('holdout', i, tag));
  return out;
}

/** `count` Niger paper cards and as many synthetic colour cards, each seeded by its name under `tag`. */
export async function drawnCards(tag: string, count: number): Promise<GenuineSource[]> {
  const out: GenuineSource[] = [];
  for (let i = 0; i < count; i++) {
    const paper = `paper-card-${tag}-${i}`;
    out.push(await drawPaperCard(seededRng(seedOf(paper)), paper));
    const colour = `colour-card-${tag}-${i}`;
    out.push(await drawColourCard(seededRng(seedOf(colour)), colour));
  }
  return out;
}
