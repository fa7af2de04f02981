import type { PrecheckIssue, PrecheckRequest } from '@idv/core';
import { analyzeImages } from './analyzer.ts';
import { normalizeImage } from './image/normalize.ts';
import { readMrzOnly } from './mrz/read.ts';
import { type PrecheckOptions, precheck } from './precheck/precheck.ts';

/**
 * The two capture helpers of a session, from the uploaded bytes: the photo pre-check (advice
 * before the user confirms) and the MRZ lines for the chip access key. Observations only: the
 * caller decides what to answer (core derives the key from the lines and their check digits).
 */
export async function precheckImage(
  bytes: Uint8Array,
  opts: PrecheckOptions = {},
): Promise<{ issue: PrecheckIssue | null }> {
  return precheck(await normalizeImage(bytes), opts);
}

export async function readMrzLines(bytes: Uint8Array): Promise<{ lines: string[] } | null> {
  return readMrzOnly(await normalizeImage(bytes));
}

/**
 * Everything the API's analyzer boundary takes, run in this process: the verification analysis
 * and the two session helpers (`npm start`, tests). On AWS a Lambda stands in for it.
 */
export function inProcessAnalyzer() {
  return {
    analyze: analyzeImages,
    precheck: (request: PrecheckRequest) =>
      precheckImage(request.bytes, { documentType: request.documentType, side: request.side }),
    readMrz: readMrzLines,
  };
}
