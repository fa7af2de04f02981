import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (the `chromium` package; scripts/ensure-system-deps.sh installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium for the browser tests. With `fakeCamera` (a Y4M file, see fake-camera.ts)
 * the page's getUserMedia is granted without a prompt and plays that file as the camera.
 */
export function launchChromium(options: { fakeCamera?: string } = {}): Promise<Browser> {
  const camera = options.fakeCamera
    ? [
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${options.fakeCamera}`,
      ]
    : [];
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', ...camera] });
}
