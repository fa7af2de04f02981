/**
 * The device camera through getUserMedia. In-app browsers (social apps' web views) and pages
 * without HTTPS often have none: the caller then falls back to `<input type=file capture>`.
 */
export async function openCamera(facing: 'user' | 'environment'): Promise<MediaStream | null> {
  if (!navigator.mediaDevices?.getUserMedia) return null;
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: false,
      // Ask for a high resolution: the MRZ needs it; the browser gives the nearest it has.
      video: { facingMode: { ideal: facing }, width: { ideal: 2560 }, height: { ideal: 1440 } },
    });
  } catch {
    return null;
  }
}

export function stopCamera(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}
