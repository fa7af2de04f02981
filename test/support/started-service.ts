import type { ChildProcess } from 'node:child_process';

/** What a test follows of a spawned `npm start` (or `scripts/start.ts`): its output, readiness, exit. */
export interface StartedService {
  child: ChildProcess;
  /** Resolves once the service printed that it is ready; rejects if it exits first. */
  ready: Promise<void>;
  /** Resolves with the process's exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** The line `npm start` prints last, once storage, API, worker and console all run. */
const READY_LINE = 'Ctrl-C stops everything';

export function followStartedService(child: ChildProcess): StartedService {
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes(READY_LINE)) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    exited.then(({ code, signal }) => {
      clearInterval(timer);
      reject(new Error(`the service exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  // A start that is expected to fail never awaits `ready`: keep its rejection handled.
  ready.catch(() => {});
  return { child, ready, exited, output: () => output };
}
