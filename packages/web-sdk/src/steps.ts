import type { CaptureDocument } from './types.ts';

export type StepKind = 'front' | 'back' | 'selfie';

export interface CaptureStep {
  kind: StepKind;
  /** Key of the step's title in the messages. */
  title: 'step_passport_front' | 'step_cni_front' | 'step_cni_back' | 'step_cni_old_front' | 'step_selfie';
  /** Width / height of the frame overlay (document format, or the selfie oval). */
  aspect: number;
}

/** ID-1 card (85.60 × 53.98 mm); TD3 passport page (125 × 88 mm); paper card page is taller than wide. */
const CARD = 85.6 / 53.98;
const PASSPORT = 125 / 88;
const PAPER_CARD = 0.7;
const SELFIE: CaptureStep = { kind: 'selfie', title: 'step_selfie', aspect: 0.78 };

/** What each document needs, in the order the user takes the photos. */
export function stepsFor(document: CaptureDocument): CaptureStep[] {
  switch (document) {
    case 'passport':
      return [{ kind: 'front', title: 'step_passport_front', aspect: PASSPORT }, SELFIE];
    case 'cni':
      return [
        { kind: 'front', title: 'step_cni_front', aspect: CARD },
        { kind: 'back', title: 'step_cni_back', aspect: CARD },
        SELFIE,
      ];
    case 'cni_old':
      return [{ kind: 'front', title: 'step_cni_old_front', aspect: PAPER_CARD }, SELFIE];
  }
}

/** The documents a user may choose from, given what the session imposes. */
export function documentChoices(forced: 'passport' | 'cni' | undefined): CaptureDocument[] {
  if (forced === 'passport') return ['passport'];
  // A session imposing an identity card accepts both kinds of Niger card.
  if (forced === 'cni') return ['cni', 'cni_old'];
  return ['passport', 'cni', 'cni_old'];
}
