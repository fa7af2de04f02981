/**
 * Synthetic identity documents with known truth, for the reading benchmark and the tamper
 * attacks: `generateDocument(seed, options)` and the `corpus` / `generateCorpus` iterators.
 */
export { type CaptureParams, capture, type Level, sampleCapture, sampleScan } from './capture.ts';
export { type DocumentKind, type Holder, makeHolder } from './content.ts';
export {
  type CorpusItem,
  corpus,
  type GeneratedDocument,
  type GeneratedImage,
  type GenerateOptions,
  generateCorpus,
  generateDocument,
  type Split,
} from './generate.ts';
export type { Point, Quad } from './geometry.ts';
export { LAYOUTS, type LayoutSpec, layoutById, layoutsFor } from './layouts.ts';
export type { SynthTruth } from './truth.ts';
