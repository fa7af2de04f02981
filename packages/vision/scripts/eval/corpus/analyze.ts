import type { DocumentLayout, TamperSignal } from '@idv/core';
import { textExtent } from '../../../src/document/extent.ts';
import { normalizeImage } from '../../../src/image/normalize.ts';
import { readDocument } from '../../../src/read-document.ts';
import { detectTamper, TAMPER_SIGNS } from '../../../src/tamper/index.ts';

/**
 * The tamper step as the analyzer runs it on an upload: decode, read (the reading step gives the
 * document's extent, the field boxes and the lines), then detect.
 */
export async function analyzeUpload(
  bytes: Uint8Array,
  layout: DocumentLayout,
): Promise<{ signals: TamperSignal[]; ms: number }> {
  const front = await normalizeImage(bytes);
  const reading = await readDocument({ front });
  const region = textExtent(reading.textBoxes, 'front', front.width, front.height);
  const { signals, timings } = await detectTamper(
    { front, originals: { front: bytes } },
    {
      layout,
      documentRegions: region ? { front: region } : {},
      textBoxes: reading.fieldBoxes,
      lineBoxes: reading.textBoxes,
    },
  );
  return { signals, ms: timings.tamper_ms ?? 0 };
}

/** The tamper check fails: a sign of tampering (not a capture anomaly) at high severity. */
export const failsCheck = (signals: TamperSignal[]) =>
  signals.some((s) => TAMPER_SIGNS[s.type].maxEffect === 'fail' && s.severity === 'high');

export function layoutOfKind(kind: string): DocumentLayout {
  if (kind === 'passport') return 'td3';
  if (kind === 'id_td1') return 'td1';
  if (kind === 'id_td2') return 'td2';
  return 'unknown';
}
