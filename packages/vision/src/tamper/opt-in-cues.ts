/**
 * The tamper cues that are built and measured but not on by default, each behind one environment
 * switch (`IDV_TAMPER_<NAME>=1`). They are off because the rule each was judged by on the
 * holdouts did not hold: most raised more tamper fails on bona fide documents than the ≤ 2 % the
 * issue allows, the misfit cue flagged two genuine real pages
 * (docs/benchmarks.md and docs/decisions.md give each one's figures); the switch lets an
 * evaluation measure the step with and without them. The switch is read at each call, so one
 * process can measure both. A cue on by default has a switch to turn it off instead (OptOutCue,
 * below).
 */
export type OptInCue =
  /** The ghost image repeated in the portrait (portrait-ghost.ts). */
  | 'GHOST'
  /** Text typed over a field, not printed with the document (typed-text.ts). */
  | 'TYPED'
  /** A straight seam around the portrait (portrait-seam.ts). */
  | 'SEAM'
  /** Toner speckle of a colour copy (toner-speckle.ts). */
  | 'SPECKLE'
  /** The copy cues made to agree: classifier, speckle and colour spread (copy-agreement.ts). */
  | 'COPY_AGREE'
  /** The stroke cue on document numbers (font-consistency.ts, DOCUMENT_NUMBER_STROKE_TOLERANCE). */
  | 'NUMBER_STROKE'
  /** A value that reads as another field's kind (misfit-value.ts). */
  | 'MISFIT_VALUE';

export function optInCueOn(cue: OptInCue): boolean {
  return process.env[`IDV_TAMPER_${cue}`] === '1';
}

/**
 * The cues on by default that an evaluation may turn off (`IDV_TAMPER_<NAME>=0`), read at each
 * call like the switches above, to measure the step without them.
 */
export type OptOutCue =
  /** The portrait-swap classifier (portrait-model.ts), on since it met its rule for on. */
  | 'PORTRAIT_CNN'
  /** A value of another weight than its side's others (value-weight.ts). */
  | 'VALUE_WEIGHT'
  /** A page whose colour spread and colour peak are both low (muted-page.ts). */
  | 'MUTED_PAGE'
  /** A band of in-painting around a read line (fill-band.ts), on since it met its rule for on. */
  | 'FILL_BAND';

export function optOutCueOn(cue: OptOutCue): boolean {
  return process.env[`IDV_TAMPER_${cue}`] !== '0';
}
