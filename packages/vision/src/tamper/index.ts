import type { ImageKind, TamperSignal, TamperType } from '@idv/core';
import { detectDocumentFaces, type FaceBox, largestFace } from '../faces/detect.ts';
import { type GreyImage, toGrey } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import type { Box } from '../image/raster.ts';
import {
  BLUR_MAX_LAPLACIAN_VAR,
  blurStrength,
  clippedWhiteShare,
  dullsFinePrint,
  GLARE_MIN_FRACTION,
  glareSpot,
  glareStrength,
  nearGlare,
  sharpness,
  touchesBorder,
} from './capture.ts';
import {
  captureScores,
  LEARNED_SCREEN,
  learnedCopyStrength,
  learnedCues,
  learnedStrength,
} from './capture-model.ts';
import { copyAgreementOn, copyStrength, strongestCopyCue } from './copy-agreement.ts';
import { REVIEW_MAX_STRENGTH, severityFor } from './descriptions.ts';
import {
  FIELD_TONE_DIFF,
  fieldBackgroundContrast,
  fieldPaperTone,
  type RingCanvas,
  straightenedWithRing,
} from './field-background.ts';
import { fillBandStrength, measureFillBand } from './fill-band.ts';
import {
  DOCUMENT_NUMBER_STROKE_TOLERANCE,
  fieldFontDeviation,
  GLYPH_HEIGHT_TOLERANCE,
  heightRuleOf,
} from './font-consistency.ts';
import { isMisfitValue } from './misfit-value.ts';
import { MUTED_PAGE, mutedPageOn, mutedPageStrength } from './muted-page.ts';
import { optInCueOn, optOutCueOn } from './opt-in-cues.ts';
import { PAGE_COLOUR_PEAK, pageColourPeak } from './page-colour.ts';
import { paperCardCopyStrength } from './paper-card-copy.ts';
import { colourSpread, documentWindow, PAGE_SCALE, photocopyStrength, STRICT_SCALE } from './photocopy.ts';
import { SWAP_WITH_SEAM, swapSignStrength, swapWithSeamStrength } from './portrait-agreement.ts';
import { cutSides, MIN_CUT_SIDES, measurePortraitEdges } from './portrait-edge.ts';
import { compareWithGhost, ghostMismatchStrength } from './portrait-ghost.ts';
import { portraitModelOn, portraitSwapScore } from './portrait-model.ts';
import { measurePortraitSeam, type SeamMeasure, seamStrength } from './portrait-seam.ts';
import {
  MIN_STREAKS,
  measurePortraitStreaks,
  portraitStreaked,
  STREAKS_UNMISTAKABLE,
} from './portrait-streaks.ts';
import { nativeScreenPeakRatios, SCREEN_PEAK_RATIO, screenPeakRatio, screenStrength } from './screen.ts';
import {
  FILL_MIN_RING_TEXTURE,
  measureFillTexture,
  parseLineBoxes,
  smoothFillStrength,
} from './smooth-fill.ts';
import { parseTextBoxes } from './text-boxes.ts';
import { isLineShaped, type LineBox, lineShape, textBands } from './text-line.ts';
import { measureSpeckle, speckleCueOn, speckleStrength } from './toner-speckle.ts';
import { type MeasuredField, measureTypedText, typedTextOutliers } from './typed-text.ts';
import { strengthBetween, strongerSign, type TamperContext, type TamperImages } from './types.ts';
import { type WeighedValue, weightOutliers } from './value-weight.ts';

export { severityFor, TAMPER_SIGNS } from './descriptions.ts';

export type { TamperContext, TamperImages, TamperTextBox } from './types.ts';

export interface TamperOptions {
  /**
   * Filled with each detector's time in ms (summed over sides and fields) when given: the
   * tamper-stages bench reads it; the service leaves it out.
   */
  stageTimes?: Record<string, number>;
  /** The clock of `stageTimes` in ms (default: wall time; the bench passes the process's CPU time). */
  clock?: () => number;
  /**
   * Filled with the copy cues' raw measures per side when given (`front.spread`,
   * `front.learned_copy`, `front.speckle`, ...), the blur measure (`front.sharpness`), the
   * portrait classifier's p(swap) (`front.portrait_swap`), the seam's weakest side around the
   * portrait (`front.seam`) and, with the ghost cue on, the portrait's fused face score against
   * its ghost (`front.ghost_match`): the evaluation reads them to tune how the cues combine and
   * to rank weights on the same images; the service leaves it out.
   */
  measures?: Record<string, number>;
}

/**
 * Looks for tamper signs on the document photos. Each detector measures one physical property
 * and reports a sign only past a threshold explained next to its constant. The core decides
 * what a sign does to the tamper check (capture anomalies never fail it alone).
 *
 * Niger's paper card: stamps, fiscal stamps, fingerprints, handwriting and wear are normal.
 * They cross printed fields and change their background, so the field detectors are not run on
 * that layout, and the card (printed on tinted paper, photographs often black and white) has a
 * stricter photocopy bar.
 */
export async function detectTamper(
  images: TamperImages,
  context: TamperContext,
  options: TamperOptions = {},
): Promise<{ signals: TamperSignal[]; timings: Record<string, number> }> {
  const t0 = performance.now();
  const stages = options.stageTimes;
  // Adds a detector's time to `stages` (the tamper-stages bench); a plain call otherwise.
  const clock = options.clock ?? (() => performance.now());
  const timed = <T>(stage: string, run: () => T): T => {
    if (!stages) return run();
    const start = clock();
    const out = run();
    stages[stage] = (stages[stage] ?? 0) + clock() - start;
    return out;
  };
  const timedAsync = async <T>(stage: string, run: () => Promise<T>): Promise<T> => {
    if (!stages) return run();
    const start = clock();
    const out = await run();
    stages[stage] = (stages[stage] ?? 0) + clock() - start;
    return out;
  };
  const signals: TamperSignal[] = [];
  const add = (type: TamperType, side: ImageKind, strength: number, field?: string) => {
    const s = Math.round(Math.max(0, Math.min(1, strength)) * 100) / 100;
    signals.push({ type, severity: severityFor(type, s), side, strength: s, ...(field ? { field } : {}) });
  };
  const paperCard = context.layout === 'niger_paper_card';
  const sides: [ImageKind, NormalizedImage][] = [['front', images.front]];
  if (images.back) sides.push(['back', images.back]);

  // Every face on the front (the portrait and a ghost the scan may see); the scan is the face
  // step's, cached per image (faces/detect.ts), so the analyzer pays it once.
  const frontFaces: FaceBox[] =
    context.portrait !== undefined
      ? context.portrait
        ? [context.portrait]
        : []
      : await timedAsync('portrait_detect', () => detectDocumentFaces(images.front));
  const portrait = largestFace(frontFaces) ?? null;

  // One grey image per side, made once: the blur measure, the portrait cues and the field
  // detectors all read it.
  const greys = new Map<ImageKind, ReturnType<typeof toGrey>>();
  const greyOf = (side: ImageKind, image: NormalizedImage) => {
    let grey = greys.get(side);
    if (!grey) {
      grey = timed('grey', () => toGrey(image));
      greys.set(side, grey);
    }
    return grey;
  };

  const boxes = parseTextBoxes(context.textBoxes);
  // Who reads a side's full-size grey: the portrait cues (front) and a field given without its
  // quad (measured on the photo's rows and columns). Fields with a quad are straightened from
  // the colour pixels.
  const needsFullGrey = (side: ImageKind) =>
    !paperCard && ((side === 'front' && portrait !== null) || boxes.some((b) => b.side === side && !b.quad));

  const nativeRatios =
    context.nativeScreenRatios ?? (await timedAsync('screen_native', () => nativeScreenPeakRatios(images)));
  // Sides whose capture is too blurred or glared for fine print to settle a fail (dullsFinePrint).
  const dulledSides = new Set<ImageKind>();
  // Where each side's reported glare blob lies: the font cue's fails are held near it.
  const glareBoxes = new Map<ImageKind, Box>();
  for (const [side, image] of sides) {
    // The capture signs first: they decide how far the copy and font cues may go on this side.
    // Glare's blobs traced only where enough white is clipped for one to reach the sign's bar.
    const spot = timed('glare', () => glareSpot(image, GLARE_MIN_FRACTION));
    const glare = glareStrength(spot.fraction);
    if (glare !== null && spot.box) glareBoxes.set(side, spot.box);
    // The full-size grey when a later detector needs it anyway; else the blur measure reduces
    // the colour pixels itself (a card's back, the paper card).
    const grey = needsFullGrey(side) ? greyOf(side, image) : undefined;
    // Without the measures asked for, the blur measure stops once it shows itself above the
    // sign's bar (sharpness): the sign is the same.
    const blurBar = options.measures ? undefined : BLUR_MAX_LAPLACIAN_VAR;
    const lapVar = timed('blur', () => sharpness(image, grey, blurBar));
    if (options.measures) options.measures[`${side}.sharpness`] = lapVar;
    const blur = blurStrength(lapVar);
    const dulled = dullsFinePrint(blur, glare);
    if (dulled) dulledSides.add(side);

    // Other measures and bars where genuine colour is thin: the paper card (tinted paper, often
    // a black and white photo) and a card's back (much of it is the MRZ's clear zone).
    const scale = paperCard || side === 'back' ? STRICT_SCALE : PAGE_SCALE;
    // Photocopy: measured on the document (its read text and portrait) when its extent is
    // known; else the front around the portrait, the back in its centre.
    const window = documentWindow(
      image,
      side === 'front' ? portrait : null,
      context.documentRegions?.[side as 'front' | 'back'],
    );
    // Without the measures asked for, a spread above the highest bar it is judged by (the flag
    // bar, or the muted page's) is only known to be above it (colourSpread): the sign is the same.
    const muted = scale === PAGE_SCALE && mutedPageOn();
    const spreadBar = options.measures ? undefined : muted ? MUTED_PAGE.spread : scale.flag;
    const spread = timed('photocopy', () => colourSpread(image, window, scale.weighted, spreadBar));
    // The learned cue (capture-model.ts): toner, halftone and subpixel texture the colour
    // spread cannot see. By default only its screen part is used (learnedCues: the copy part
    // false-alarms on real documents at full strength, and adds nothing as a review).
    const cues = learnedCues();
    const learned =
      cues.screen || cues.copy || cues.copyReview
        ? await timedAsync('learned', () => captureScores(image, window))
        : null;
    // With IDV_TAMPER_COPY_AGREE=1 the copy cues all run and a fail needs two of them
    // (copy-agreement.ts); off by default, see there.
    const agree = copyAgreementOn();
    const greyStrength = photocopyStrength(spread, scale);
    // The document's whole extent (page-colour.ts), where the reading step placed it, tells two
    // things the spread's window cannot: a grey spread that would fail is held at review when a
    // saturated stripe or title shows somewhere (a pale genuine print; a grey copy has none),
    // and a page a little above the flag bar is a muted page (a colour copy) when nothing on it
    // is saturated (muted-page.ts). Measured only then, or when an evaluation asks for it.
    const documentRegion = context.documentRegions?.[side as 'front' | 'back'];
    const pagePeak =
      documentRegion &&
      ((greyStrength !== null && greyStrength > REVIEW_MAX_STRENGTH) ||
        (muted && spread <= MUTED_PAGE.spread) ||
        options.measures)
        ? timed('photocopy', () => pageColourPeak(image, documentRegion))
        : Number.NaN;
    const spreadCopy =
      greyStrength !== null && pagePeak > PAGE_COLOUR_PEAK
        ? Math.min(greyStrength, REVIEW_MAX_STRENGTH)
        : greyStrength;
    const mutedCopy = muted ? mutedPageStrength(spread, pagePeak) : null;
    const colourCopy = strongerSign(spreadCopy, mutedCopy);
    const learnedCopy = learned ? learnedCopyStrength(learned.copy, cues, agree) : null;
    // Stray toner dots on the blank paper (toner-speckle.ts): a copy that kept its colour.
    // Opt-in (speckleCueOn): it false-alarms on real genuine documents.
    const speckle = speckleCueOn() || agree ? timed('speckle', () => measureSpeckle(image, window)) : null;
    if (options.measures) {
      options.measures[`${side}.spread`] = spread;
      if (!Number.isNaN(pagePeak)) options.measures[`${side}.page_peak`] = pagePeak;
      if (learned) options.measures[`${side}.learned_copy`] = learned.copy;
      if (learned) options.measures[`${side}.learned_screen`] = learned.screen;
      if (speckle) options.measures[`${side}.speckle`] = speckle.density;
      if (documentRegion) options.measures[`${side}.clipped`] = clippedWhiteShare(image, documentRegion);
    }
    const copyCues = {
      colour: colourCopy,
      learned: learnedCopy,
      speckle: speckle ? speckleStrength(speckle.density) : null,
    };
    const fromCues = agree ? copyStrength(copyCues) : strongestCopyCue(copyCues);
    // On the paper card the classifier confirms or clears the cues' sign and raises a review
    // alone from a high bar (paper-card-copy.ts).
    const copy = paperCard && learned && !agree ? paperCardCopyStrength(fromCues, learned.copy) : fromCues;
    // The paper card is a copy-like object by nature: drawn independently (corpus/paper-card.ts)
    // with a black and white photo and a faded stamp, a genuine card is about as grey as a
    // photocopy of it (the former 0.004 against 0.005–0.009 unweighted). Colour alone cannot
    // settle it there, so on that layout the sign stays below high severity (review, never a
    // fail on its own).
    // A poor capture (dullsFinePrint) dulls a pale genuine print's colour as a copy lost it: a
    // review, never a fail, there too.
    if (copy !== null)
      add('photocopy', side, paperCard || dulled ? Math.min(copy, REVIEW_MAX_STRENGTH) : copy);

    const native = nativeRatios[side as 'front' | 'back'];
    // Exact from the bar up, only known to lie under it below (screenPeakRatio): the strength
    // of the larger of the two scores is the same either way.
    const grid = screenStrength(
      Math.max(
        timed('screen', () => screenPeakRatio(image, SCREEN_PEAK_RATIO)),
        native ?? 0,
      ),
    );
    const learnedScreen = learned && cues.screen ? learnedStrength(learned.screen, LEARNED_SCREEN) : null;
    const screen = strongerSign(grid, learnedScreen);
    if (screen !== null) add('photo_of_screen', side, screen);

    if (glare !== null) add('glare', side, glare);
    if (blur !== null) add('blur', side, blur);
  }

  if (portrait && !paperCard) {
    // The paper card's portrait is a real photo glued on the page: its edges are cut by nature.
    const grey = greyOf('front', images.front);
    // The ghost image against the portrait (portrait-ghost.ts): a swapped portrait is another
    // person. Off unless IDV_TAMPER_GHOST=1 (read per call): on the tuning corpus it flagged 3 of
    // 22 genuine captures (a false ghost found in print, a genuine ghost misjudged) for 5 of 45
    // swaps caught, and doubled the step's time (docs/decisions.md, issue 14).
    const ghost = optInCueOn('GHOST')
      ? await timedAsync('portrait_ghost', () =>
          compareWithGhost(images.front, grey, portrait, frontFaces, context.documentRegions?.front),
        )
      : null;
    // The learned swap classifier (portrait-model.ts). On unless IDV_TAMPER_PORTRAIT_CNN=0
    // (read per call): see PORTRAIT_SWAP (portrait-model.ts) for its measured figures, and
    // portrait-agreement.ts for how it and the seam combine.
    const swap = portraitModelOn()
      ? await timedAsync('portrait_cnn', () => portraitSwapScore(images.front, portrait))
      : null;
    // The seam all around the face: a cue alone when switched on (IDV_TAMPER_SEAM=1), else
    // measured only where the classifier reaches the bar at which the two agreeing raise a sign
    // (portrait-agreement.ts), and for the evaluation's measures.
    const seamAlone = optInCueOn('SEAM');
    const seam =
      seamAlone || (swap !== null && swap >= SWAP_WITH_SEAM.swap) || options.measures
        ? timed('portrait_seam', () => measurePortraitSeam(grey, portrait))
        : null;
    if (options.measures && swap !== null) options.measures['front.portrait_swap'] = swap;
    if (options.measures && seam) options.measures['front.seam'] = seam.weakest;
    if (options.measures && ghost) options.measures['front.ghost_match'] = ghost.score;
    const edges = portraitEdgeStrength(images.front, portrait, grey, seamAlone ? seam : null, timed);
    const strength = Math.max(
      edges,
      swapWithSeamStrength(swap, seam),
      ghost ? (ghostMismatchStrength(ghost.score) ?? 0) : 0,
      swapSignStrength(swap, seam),
    );
    if (strength > 0) add('portrait_edge', 'front', strength);
  }

  // A field or line straightened with its ring, made once per quad: the background-tone and the
  // in-painting cues measure the same canvas when a read line is a field (MRZ lines always are).
  const rings = new Map<string, RingCanvas>();
  const ringOf = (side: ImageKind, image: NormalizedImage, quad: [number, number][]) => {
    const key = `${side}:${quad.flat().join(',')}`;
    let ring = rings.get(key);
    if (!ring) {
      ring = timed('straighten', () => straightenedWithRing(image, quad));
      rings.set(key, ring);
    }
    return ring;
  };

  // Text bands per straightened canvas (text-line.ts), counted once: a read line that is also a
  // field (MRZ lines) is checked by both loops below on the same canvas.
  const bands = new Map<RingCanvas, number>();
  const oneTextLine = (box: LineBox, canvas: RingCanvas | { canvas: GreyImage; inner: Box }) =>
    timed('text_line', () => {
      if (!isLineShaped(lineShape(box))) return false;
      const ring = canvas as RingCanvas;
      let n = bands.get(ring);
      if (n === undefined) {
        // A straightened canvas's paper tone is shared with the field cues (fieldPaperTone).
        const paper = 'margin' in canvas ? fieldPaperTone(ring) : undefined;
        n = textBands(canvas.canvas, canvas.inner, paper);
        if ('margin' in canvas) bands.set(ring, n);
      }
      return n <= 1;
    });

  // Values measured for the typed-text cue, compared per side once all are measured (opt-in,
  // see below).
  const typedOn = optInCueOn('TYPED');
  const typedFields: MeasuredField[] = [];
  // Values' weights, compared per side once all are measured (value-weight.ts).
  const weightOn = optOutCueOn('VALUE_WEIGHT');
  const weighed: WeighedValue[] = [];
  const misfitOn = optInCueOn('MISFIT_VALUE');
  for (const box of boxes) {
    const image = box.side === 'back' ? images.back : images.front;
    if (!image) continue;
    // A value that reads as another field's kind (a name under a date's label): a value region
    // moved over the field (misfit-value.ts). A review at most. Off unless
    // IDV_TAMPER_MISFIT_VALUE=1: on generated draws it caught a quarter of the values moved over
    // another field with no genuine capture flagged, but on the fixtures' holdout half it flagged
    // two genuine pages whose value the reading step took from a label line (docs/decisions.md).
    if (misfitOn && box.unparsed && isMisfitValue(box.field, box.value))
      add('field_overwritten', box.side, REVIEW_MAX_STRENGTH, box.field);
    // A value that did not parse (box.unparsed) is judged by the glyph cue alone: the field
    // cues below were measured on values the reading step read.
    if (!box.unparsed && touchesBorder(box, image.width, image.height)) {
      if (!signals.some((s) => s.type === 'partial_document' && s.side === box.side))
        add('partial_document', box.side, 0.5);
    }
    if (paperCard) continue;
    const grey = box.quad ? null : greyOf(box.side, image);
    const ring = box.quad ? ringOf(box.side, image, box.quad) : undefined;
    // Only a box holding one line of dark text is judged (text-line.ts): merged or glyph-sized
    // boxes are reading accidents that both field cues would take for forgeries, and light text
    // on a dark band has its letters for paper.
    const canvas = ring ?? { canvas: grey!, inner: box };
    if (!oneTextLine(box, canvas)) continue;
    const typed = typedOn && !box.unparsed ? timed('typed_text', () => measureTypedText(canvas)) : null;
    if (typed) {
      const shape = lineShape(box);
      typedFields.push({
        field: box.field,
        side: box.side,
        measure: typed,
        at: [box.x + box.w / 2, box.y + box.h / 2],
        aspect: shape.w / Math.max(1, shape.h),
      });
    }
    const heightRule = heightRuleOf(box.field);
    if (heightRule) {
      // The height cue, on fields of capitals or digits, and on given names, place of birth and
      // nationality where their glyphs show capitals (heightRuleOf). The stroke cue
      // (font-consistency.ts, strokeDeviation) on every field flagged 11 of 34 bona fide
      // captures of the generated holdout (real pages' names and dates vary in weight more than
      // the tuning half showed); on document numbers only it is opt-in
      // (IDV_TAMPER_NUMBER_STROKE=1): on the real holdout half it flagged one more bona fide page
      // (a genuine number measuring 0.59), past the 1/28 the issue allows (docs/decisions.md).
      const font = timed('font', () =>
        fieldFontDeviation(image, box, grey ?? undefined, {
          fillers: box.field.startsWith('mrz'),
          capitalsOnly: heightRule === 'capitals',
          // The reading step's value boxes (with a quad) are padded by one line height.
          paddedByHeight: box.quad !== undefined,
        }),
      );
      if (options.measures) {
        const key = `${box.side}.font.${box.field}${box.unparsed ? '.unparsed' : ''}`;
        if (font.height !== null) options.measures[`${key}.height`] = font.height;
        if (font.stroke !== null) options.measures[`${key}.stroke`] = font.stroke;
        if (font.weight != null) options.measures[`${key}.weight`] = font.weight;
      }
      const glareBox = glareBoxes.get(box.side);
      const nearGlareSpot = glareBox !== undefined && nearGlare(box, glareBox);
      // The value's weight, for the comparison with its side's others: a value that did not
      // parse or an MRZ line (OCR-B, another face by design) is not a value of the page's face;
      // glare thins the strokes it fades and blur thickens them, so neither a dulled side nor a
      // value near glare is weighed.
      if (
        weightOn &&
        font.weight != null &&
        !box.unparsed &&
        !box.field.startsWith('mrz') &&
        !dulledSides.has(box.side) &&
        !nearGlareSpot
      )
        weighed.push({ field: box.field, side: box.side, weight: font.weight });
      // A value that did not parse, broken by another mark's ink (a stamp or a pen across it,
      // which spoiled its reading too): no sign. Genuine dates under stamps are the unparsed
      // values that break most (the generated tuning draw under hazards); a forger's glyph is
      // ink of the text's kind.
      const unparsedUnderMark = box.unparsed === true && font.foreignInk === true;
      if (font.height !== null && font.height > GLYPH_HEIGHT_TOLERANCE && !unparsedUnderMark) {
        const strength = strengthBetween(font.height, GLYPH_HEIGHT_TOLERANCE, 0.5);
        // Text joined to a stamp's or a pen's ink (font-consistency.ts joinedToOtherInk), or on a
        // blurred or glared side (dullsFinePrint): a review, never a fail (stamps and
        // handwriting on genuine documents; capture problems never fail alone). A field that
        // may be printed in mixed case (heightRule `capitals`) too: that it is printed in
        // capitals at all is read from the same glyphs whose heights are judged. And a value
        // that did not parse: what spoiled its reading (a stamp, a fold, a crease's shadow)
        // may have spoiled its glyphs' outlines too.
        // So does a value in or near a reported glare blob (nearGlare): glare fades the glyphs
        // in its halo, and a faded glyph reads shorter than its neighbours.
        const reviewOnly =
          font.foreignInk ||
          dulledSides.has(box.side) ||
          nearGlareSpot ||
          heightRule === 'capitals' ||
          box.unparsed === true;
        add(
          'font_inconsistency',
          box.side,
          reviewOnly ? Math.min(strength, REVIEW_MAX_STRENGTH) : strength,
          box.field,
        );
      } else if (
        optInCueOn('NUMBER_STROKE') &&
        box.field === 'document_number' &&
        font.stroke !== null &&
        font.stroke > DOCUMENT_NUMBER_STROKE_TOLERANCE
      )
        // A digit of another weight at the number's height: medium at most (a review), the bar
        // being only 1.5× the bona fide values (font-consistency.ts).
        add(
          'font_inconsistency',
          box.side,
          Math.min(REVIEW_MAX_STRENGTH, strengthBetween(font.stroke, DOCUMENT_NUMBER_STROKE_TOLERANCE, 1)),
          box.field,
        );
    }
    if (box.unparsed) continue;
    const contrast = timed('field_background', () => fieldBackgroundContrast(grey, box, image, ring));
    if (contrast && contrast.toneDiff > FIELD_TONE_DIFF) {
      add('field_overwritten', box.side, strengthBetween(contrast.toneDiff, FIELD_TONE_DIFF, 60), box.field);
    }
  }

  // Values typed again, compared with their side's other values; a field already flagged (the
  // tone cue, or the first of these) is not counted twice:
  // - in another face or weight (value-weight.ts), a review;
  // - on plain paper, with ink or edges unlike the neighbouring values (typed-text.ts). Off
  //   unless IDV_TAMPER_TYPED=1 (read per call): on the reading benchmark's bona fide captures
  //   (uneven focus and light) it flagged 4 of 27 documents, above the 2 % bar
  //   (docs/benchmarks.md, issue 14).
  for (const t of [...weightOutliers(weighed), ...(typedOn ? typedTextOutliers(typedFields) : [])]) {
    if (!signals.some((s) => s.type === 'field_overwritten' && s.side === t.side && s.field === t.field))
      add('field_overwritten', t.side, t.strength, t.field);
  }

  if (!paperCard) {
    // In-painted lines: one sign per line whose background lost the document's print.
    const fillBandOn = optOutCueOn('FILL_BAND');
    for (const line of parseLineBoxes(context.lineBoxes)) {
      const image = line.side === 'back' ? images.back : images.front;
      if (!image) continue;
      const ring = ringOf(line.side, image, line.quad);
      if (!oneTextLine(line, ring)) continue;
      // A line with a plain ring part is left as soon as that part shows (measureFillTexture):
      // no sign either way.
      const texture = timed('smooth_fill', () =>
        measureFillTexture(image, line.quad, ring, FILL_MIN_RING_TEXTURE),
      );
      const strength = texture ? smoothFillStrength(texture) : null;
      if (strength !== null) {
        add('field_overwritten', line.side, strength);
        continue;
      }
      // A fill grown past the ring smooths the ring too: the near and far bands (fill-band.ts).
      // On unless IDV_TAMPER_FILL_BAND=0: on pages printed with dense security print it caught
      // in-painted fields the ring misses and flagged no genuine capture (docs/decisions.md).
      if (!fillBandOn) continue;
      const band = timed('fill_band', () => measureFillBand(image, line.quad, ring));
      const bandStrength = band ? fillBandStrength(band) : null;
      if (bandStrength !== null) {
        add('field_overwritten', line.side, bandStrength);
        if (options.measures) {
          const key = `${line.side}.fill_band_lines`;
          options.measures[key] = (options.measures[key] ?? 0) + 1;
        }
      }
    }
  }

  return { signals, timings: { tamper_ms: Math.round(performance.now() - t0) } };
}

/**
 * Three cues, one sign: cut edges around the portrait (a photo pasted over the document), the
 * streaks of a photo fitted into the genuine frame, or a seam on all four sides of the face (a
 * second picture laid over the page, portrait-seam.ts); the stronger one counts (0 when none).
 * The seam alone stays below high severity (seamStrength): a genuine photo with a hard frame on a
 * contrasting page shows the same four sides. It is opt-in (IDV_TAMPER_SEAM=1): measured, not
 * yet good enough to be on by default; `seam` is its measure then, null otherwise (with the swap
 * classifier it counts by default: portrait-agreement.ts, in the caller).
 */
function portraitEdgeStrength(
  front: NormalizedImage,
  portrait: FaceBox,
  grey: GreyImage,
  seam: SeamMeasure | null,
  timed: <T>(stage: string, run: () => T) => T,
): number {
  const cut = cutSides(timed('portrait_edges', () => measurePortraitEdges(front, portrait, grey)));
  const cutStrength = cut.length >= MIN_CUT_SIDES ? strengthBetween(cut.length, MIN_CUT_SIDES - 1, 3) : 0;
  const streaks = timed('portrait_streaks', () => measurePortraitStreaks(grey, portrait));
  const streakStrength =
    streaks && portraitStreaked(streaks)
      ? strengthBetween(streaks.inside, MIN_STREAKS - 1, STREAKS_UNMISTAKABLE)
      : 0;
  // The seam alone: given only when IDV_TAMPER_SEAM=1 (read per call): on the fixtures' holdout
  // half it raised a review sign on 8 of 28 genuine documents (hard-framed photos),
  // docs/benchmarks.md issue 14.
  return Math.max(cutStrength, streakStrength, seam ? seamStrength(seam) : 0);
}
