import { mountFlow } from './flow.ts';
import type { MountedCapture, MountOptions } from './types.ts';

export type * from './types.ts';

/**
 * Mounts the capture flow in `element`: the end user chooses the document, photographs it and
 * takes a selfie; the photos go to `POST /v1/sessions/{id}/verify` with the client token.
 */
export function mount(element: HTMLElement, options: MountOptions): MountedCapture {
  if (!element) throw new Error('mount: an element is required');
  if (!/^ses_/.test(options?.sessionId ?? '')) throw new Error('mount: sessionId must be a ses_… id');
  if (!/^vn_ct_/.test(options?.clientToken ?? ''))
    throw new Error('mount: clientToken must be a vn_ct_… token');
  return mountFlow(element, options);
}
