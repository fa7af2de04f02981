import { ApiFailure, type SessionClient, sessionClient, withNetworkRetry } from './api-client.ts';
import { openCamera, stopCamera } from './camera.ts';
import { browserLocale, type Messages, messages } from './i18n.ts';
import { compressFile, toJpeg } from './image.ts';
import { type CaptureStep, documentChoices, stepsFor } from './steps.ts';
import { STYLES } from './styles.ts';
import type {
  CaptureDocument,
  CaptureError,
  CaptureResult,
  Locale,
  MountedCapture,
  MountOptions,
} from './types.ts';

/**
 * The capture flow shared by the hosted page and the SDK: choose the document, take each
 * photo (camera or file), pre-check it, confirm, upload with progress, finish. One screen at a
 * time is drawn into the host element; the state lives here, so switching the language
 * redraws the same screen.
 */

type Screen =
  | { name: 'start'; notice?: keyof Messages }
  | { name: 'capture' }
  | { name: 'review'; photo: Blob; url: string; advice: 'checking' | 'ok' | 'unchecked' | string }
  | { name: 'upload'; progress: number; retrying: boolean; failed: false | keyof Messages }
  | { name: 'done' }
  | { name: 'error'; text: keyof Messages };

/** While an earlier upload of the same photos is still analysed (409 conflict), ask again. */
const CONFLICT_WAIT_MS = 4000;
const CONFLICT_WAITS = 20;

type Child = Node | string | null | undefined | false;

function h(tag: string, attrs: Record<string, string | boolean | EventListener> = {}, ...children: Child[]) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name, value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false) el.setAttribute(name, value);
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

export function mountFlow(host: HTMLElement, options: MountOptions): MountedCapture {
  const baseUrl = options.baseUrl ?? sdkOrigin();
  const client: SessionClient = sessionClient(baseUrl, options.sessionId, options.clientToken);
  let locale: Locale = options.locale ?? browserLocale(navigator.languages);
  const choices = documentChoices(options.documentType);
  let documentKind: CaptureDocument = choices[0] ?? 'passport';
  let steps: CaptureStep[] = stepsFor(documentKind);
  let stepIndex = 0;
  const photos: Partial<Record<CaptureStep['kind'], Blob>> = {};
  let screen: Screen = { name: 'start' };
  let stream: MediaStream | null = null;
  let streamFacing: 'user' | 'environment' | null = null;
  let finished = false;

  const root = h('div', { class: 'vn-capture', lang: locale });
  const style = h('style', {}, STYLES);
  host.append(style, root);

  const t = () => messages(locale);
  const step = () => steps[stepIndex] as CaptureStep;

  function go(next: Screen) {
    if (screen.name === 'review' && next.name !== 'review') URL.revokeObjectURL(screen.url);
    screen = next;
    if (next.name !== 'capture') releaseCamera();
    render();
  }

  function releaseCamera() {
    stopCamera(stream);
    stream = null;
    streamFacing = null;
  }

  function fail(text: keyof Messages, error: CaptureError) {
    if (finished) return;
    finished = true;
    go({ name: 'error', text });
    options.onError?.(error);
  }

  function render() {
    root.lang = locale;
    const m = t();
    const heading = h('h2', { tabindex: '-1' });
    const body = drawScreen(m, heading);
    const switchTo: Locale = locale === 'fr' ? 'en' : 'fr';
    const top = h(
      'div',
      { class: 'vn-top' },
      h('span', {}, m.title),
      h(
        'button',
        {
          type: 'button',
          class: 'vn-lang vn-secondary',
          lang: switchTo,
          'aria-label': m.languageLabel,
          click: () => {
            locale = switchTo;
            render();
          },
        },
        m.language,
      ),
    );
    root.replaceChildren(top, heading, ...body);
    // Screen readers and keyboards start at the new screen's title.
    heading.focus();
  }

  function drawScreen(m: Messages, heading: HTMLElement): Node[] {
    switch (screen.name) {
      case 'start':
        return startScreen(m, heading, screen.notice);
      case 'capture':
        return captureScreen(m, heading);
      case 'review':
        return reviewScreen(m, heading, screen);
      case 'upload':
        return uploadScreen(m, heading, screen);
      case 'done':
        heading.textContent = m.doneTitle;
        return [h('p', { class: 'vn-note vn-ok', role: 'status' }, m.doneText)];
      case 'error':
        heading.textContent = m.errorTitle;
        return [h('p', { class: 'vn-note vn-warn', role: 'alert' }, m[screen.text] as string)];
    }
  }

  function startScreen(m: Messages, heading: HTMLElement, notice?: keyof Messages): Node[] {
    heading.textContent = m.title;
    const nodes: Node[] = [
      notice ? h('p', { class: 'vn-note vn-warn', role: 'alert' }, m[notice] as string) : h('p', {}, m.intro),
    ];
    if (choices.length > 1) {
      const fieldset = h('fieldset', {}, h('legend', {}, m.chooseDocument));
      for (const choice of choices) {
        const input = h('input', {
          type: 'radio',
          name: 'vn-document',
          value: choice,
          change: () => {
            documentKind = choice;
          },
        }) as HTMLInputElement;
        input.checked = choice === documentKind;
        fieldset.append(h('label', { class: 'vn-choice' }, input, m[choice]));
      }
      nodes.push(fieldset);
    } else {
      nodes.push(h('p', {}, m[documentKind]));
    }
    nodes.push(
      h(
        'button',
        {
          type: 'button',
          class: 'vn-primary',
          click: () => {
            steps = stepsFor(documentKind);
            stepIndex = 0;
            go({ name: 'capture' });
          },
        },
        m.start,
      ),
    );
    return nodes;
  }

  function captureScreen(m: Messages, heading: HTMLElement): Node[] {
    const current = step();
    const selfie = current.kind === 'selfie';
    heading.textContent = m[current.title];
    const video = h('video', {
      autoplay: true,
      muted: true,
      playsinline: true,
      'aria-hidden': 'true',
    }) as HTMLVideoElement;
    video.muted = true;
    const frame = h('div', { class: selfie ? 'vn-frame vn-oval' : 'vn-frame' });
    frame.style.aspectRatio = String(current.aspect);
    const view = h('div', { class: 'vn-view', 'data-step': current.kind }, video, frame);
    const notice = h('p', { class: 'vn-note', role: 'status' }, selfie ? m.hint_selfie : m.hint_document);
    const shoot = h(
      'button',
      {
        type: 'button',
        class: 'vn-primary',
        disabled: true,
        click: async () => {
          if (!video.videoWidth) return;
          const photo = await toJpeg(video, video.videoWidth, video.videoHeight);
          review(photo);
        },
      },
      m.takePhoto,
    ) as HTMLButtonElement;
    const file = h('input', {
      type: 'file',
      accept: 'image/jpeg,image/png,image/webp',
      capture: selfie ? 'user' : 'environment',
      change: async (event: Event) => {
        const picked = (event.target as HTMLInputElement).files?.[0];
        if (picked) review(await compressFile(picked));
      },
    });
    const fileButton = h('label', { class: 'vn-file' }, m.pickFile, file);

    const facing = selfie ? 'user' : 'environment';
    const attach = (s: MediaStream) => {
      video.srcObject = s;
      video.onloadedmetadata = () => {
        shoot.disabled = false;
      };
      void video.play().catch(() => undefined);
    };
    if (stream && streamFacing === facing) attach(stream);
    else {
      releaseCamera();
      void openCamera(facing).then((opened) => {
        if (screen.name !== 'capture' || step() !== current) return stopCamera(opened);
        if (!opened) {
          notice.textContent = m.cameraUnavailable;
          view.hidden = true;
          shoot.hidden = true;
          return;
        }
        stream = opened;
        streamFacing = facing;
        attach(opened);
      });
    }
    return [h('p', {}, m.stepOf(stepIndex + 1, steps.length)), notice, view, shoot, fileButton];
  }

  function review(photo: Blob) {
    const current = step();
    const next: Screen = {
      name: 'review',
      photo,
      url: URL.createObjectURL(photo),
      advice: current.kind === 'selfie' ? 'ok' : 'checking',
    };
    go(next);
    if (current.kind === 'selfie') return;
    void client.precheck(photo, documentKind, current.kind).then((result) => {
      if (screen !== next) return;
      next.advice = !result.checked ? 'unchecked' : result.issue ? result.issue : 'ok';
      render();
    });
  }

  function reviewScreen(m: Messages, heading: HTMLElement, s: Extract<Screen, { name: 'review' }>): Node[] {
    heading.textContent = m[step().title];
    let text: string;
    let tone = 'vn-note';
    if (s.advice === 'checking') text = m.checking;
    else if (s.advice === 'ok') {
      text = m.looksGood;
      tone += ' vn-ok';
    } else if (s.advice === 'unchecked') text = m.notChecked;
    else {
      text = (m[`issue_${s.advice}` as keyof Messages] as string | undefined) ?? m.notChecked;
      tone += ' vn-warn';
    }
    const problem = tone.includes('vn-warn');
    const retake = h(
      'button',
      {
        type: 'button',
        class: problem ? 'vn-primary' : 'vn-secondary',
        click: () => go({ name: 'capture' }),
      },
      m.retake,
    );
    const use = h(
      'button',
      {
        type: 'button',
        class: problem ? 'vn-secondary' : 'vn-primary',
        disabled: s.advice === 'checking',
        click: () => {
          photos[step().kind] = s.photo;
          if (stepIndex + 1 < steps.length) {
            stepIndex += 1;
            go({ name: 'capture' });
          } else void send();
        },
      },
      m.usePhoto,
    );
    // The problem, when there is one, is explained before the user can confirm.
    return [
      h('div', { class: 'vn-view' }, h('img', { src: s.url, alt: m.preview })),
      h('p', { class: tone, role: problem ? 'alert' : 'status' }, text),
      use,
      retake,
    ];
  }

  function uploadScreen(m: Messages, heading: HTMLElement, s: Extract<Screen, { name: 'upload' }>): Node[] {
    heading.textContent = m.sending;
    const percent = Math.round(s.progress * 100);
    const nodes: Node[] = [
      h('progress', { max: '100', value: String(percent), 'aria-label': m.sending }),
      h('p', { role: 'status' }, s.failed ? '' : s.retrying ? m.retrying : `${percent} %`),
    ];
    if (s.failed) {
      nodes.push(
        h('p', { class: 'vn-note vn-warn', role: 'alert' }, m[s.failed] as string),
        h('button', { type: 'button', class: 'vn-primary', click: () => void send() }, m.tryAgain),
      );
    }
    return nodes;
  }

  async function send() {
    const state: Extract<Screen, { name: 'upload' }> = {
      name: 'upload',
      progress: 0,
      retrying: false,
      failed: false,
    };
    go(state);
    const parts: Record<string, Blob> = {};
    for (const s of steps) {
      const photo = photos[s.kind];
      if (photo) parts[s.kind] = photo;
    }
    // Set once an attempt was cut (or is still running): a later "completed" may be our own.
    let reachedServer = false;
    const attempt = () =>
      withNetworkRetry(
        () =>
          client.upload(parts, (share) => {
            state.progress = share;
            root.querySelector('progress')?.setAttribute('value', String(Math.round(share * 100)));
          }),
        () => {
          reachedServer = true;
          state.retrying = true;
          render();
        },
      );
    try {
      let verification: CaptureResult | null = null;
      for (let wait = 0; !verification; wait++) {
        try {
          verification = await attempt();
        } catch (error) {
          // 409 conflict: an earlier attempt (cut on our side, or on another device) is being analysed.
          if (!(error instanceof ApiFailure) || error.code !== 'conflict' || wait >= CONFLICT_WAITS)
            throw error;
          await new Promise((resolve) => setTimeout(resolve, CONFLICT_WAIT_MS));
        }
      }
      finished = true;
      go({ name: 'done' });
      options.onComplete?.(verification);
    } catch (error) {
      if (!(error instanceof ApiFailure)) {
        state.failed = 'sendFailed';
        render();
        return;
      }
      handleRefusal(error, reachedServer);
    }
  }

  function handleRefusal(error: ApiFailure, reachedServer: boolean) {
    const detail = { code: error.code, message: error.message };
    switch (error.code) {
      case 'unreadable':
        // The session stays usable: the user takes the photos again.
        stepIndex = 0;
        return go({ name: 'start', notice: 'unreadable' });
      case 'rate_limited':
        return go({ name: 'upload', progress: 0, retrying: false, failed: 'slowDown' });
      case 'session_completed':
        // Our own earlier attempt, cut before its answer arrived, completed the session.
        if (reachedServer && !finished) {
          finished = true;
          return go({ name: 'done' });
        }
        return fail('completed', detail);
      case 'session_expired':
        return fail('expired', detail);
      case 'unauthorized':
      case 'not_found':
        return fail('invalidLink', detail);
      default:
        return fail('unavailable', detail);
    }
  }

  render();
  return {
    unmount() {
      releaseCamera();
      if (screen.name === 'review') URL.revokeObjectURL(screen.url);
      root.remove();
      style.remove();
    },
  };
}

/** The origin the SDK script was served from: the API that issued the session. */
function sdkOrigin(): string {
  try {
    return new URL(import.meta.url).origin;
  } catch {
    return location.origin;
  }
}
