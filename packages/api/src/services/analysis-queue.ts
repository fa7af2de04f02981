import { analysisConcurrency } from '@idv/core';
import { ApiError } from '../http/api-error.ts';

/**
 * A bounded work queue in front of the analysis. The models are CPU-bound: several analyses
 * run at once on 2 cores only slow each other down (every request gets slower, none finishes
 * sooner), and beyond some number of waiting requests every one of them would time out. So at
 * most `concurrency` analyses run (one per two cores by default, analysisConcurrency), at most `depth` more wait their
 * turn in arrival order, and anything beyond is refused at once with 503 `analysis_unavailable`
 * and a `retry-after` estimated from how long the work ahead takes, before anything is written.
 */

export interface AnalysisQueueOptions {
  /** Analyses run at once. Default: analysisConcurrency() (env ANALYSIS_CONCURRENCY, else one per two cores). */
  concurrency?: number;
  /** Analyses that may wait beyond the running ones. Default: env ANALYSIS_QUEUE_DEPTH, else 4 per running slot. */
  depth?: number;
}

/** The analysis time assumed before any has been measured (seconds), for retry-after. */
const INITIAL_ANALYSIS_SECONDS = 1.5;
/** Weight of the newest analysis in the running mean of analysis times. */
const MEAN_WEIGHT = 0.2;

/** A place in the queue: taken by `admit`, used once by `run`, or given back by `release`. */
export interface AnalysisTicket {
  /** Waits for a free slot, runs `work`, frees the slot when the work settles. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place back when the work will not run (idempotent; `run` releases by itself). */
  release(): void;
}

export class AnalysisQueue {
  readonly concurrency: number;
  readonly depth: number;
  private running = 0;
  /** Tickets admitted and not yet finished (running, waiting for a slot, or about to ask). */
  private admitted = 0;
  private readonly waiting: (() => void)[] = [];
  private meanSeconds = INITIAL_ANALYSIS_SECONDS;

  constructor(options: AnalysisQueueOptions = {}) {
    this.concurrency = positive(options.concurrency ?? analysisConcurrency());
    this.depth = Math.max(0, options.depth ?? envInt('ANALYSIS_QUEUE_DEPTH') ?? 4 * this.concurrency);
  }

  /** How many analyses are running and how many were admitted in all (for tests and logs). */
  get stats(): { running: number; admitted: number } {
    return { running: this.running, admitted: this.admitted };
  }

  /**
   * Takes a place or throws 503 `analysis_unavailable` with `retry-after` when the running
   * slots and the waiting places are all taken.
   */
  admit(): AnalysisTicket {
    if (this.admitted >= this.concurrency + this.depth) {
      const retryAfter = this.retryAfterSeconds();
      throw new ApiError(
        'analysis_unavailable',
        `the service is analysing as many verifications as it can hold; retry in ${retryAfter} s`,
        { 'retry-after': String(retryAfter) },
      );
    }
    this.admitted++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.admitted--;
    };
    return {
      release,
      run: async <T>(work: () => Promise<T>): Promise<T> => {
        if (done) throw new Error('this analysis ticket was already used');
        await this.slot();
        const start = performance.now();
        try {
          return await work();
        } finally {
          this.meanSeconds += MEAN_WEIGHT * ((performance.now() - start) / 1000 - this.meanSeconds);
          release();
          // The slot goes straight to the next waiting analysis (running stays the same), so
          // a request arriving meanwhile cannot take it out of turn.
          const next = this.waiting.shift();
          if (next) next();
          else this.running--;
        }
      },
    };
  }

  /** Resolves when a running slot is free (first come, first served). */
  private async slot(): Promise<void> {
    if (this.running < this.concurrency && this.waiting.length === 0) {
      this.running++;
      return;
    }
    // The finishing analysis hands its slot over directly (see run).
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Time until a place frees up: the work ahead of a new request, shared by the running slots. */
  private retryAfterSeconds(): number {
    const ahead = this.admitted - this.concurrency + 1;
    return Math.max(1, Math.ceil((ahead * this.meanSeconds) / this.concurrency));
  }
}

function envInt(name: string): number | undefined {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v >= 0 && process.env[name] !== '' ? v : undefined;
}

function positive(n: number): number {
  return Math.max(1, Math.floor(n));
}

const defaultQueues = new WeakMap<object, AnalysisQueue>();

/**
 * The queue of an app: the one its deps name, else one made with the defaults on first use and
 * kept for that deps object (one per process: the server and the Lambda build deps once).
 */
export function analysisQueueOf(deps: { analysisQueue?: AnalysisQueue }): AnalysisQueue {
  if (deps.analysisQueue) return deps.analysisQueue;
  let queue = defaultQueues.get(deps);
  if (!queue) {
    queue = new AnalysisQueue();
    defaultQueues.set(deps, queue);
  }
  return queue;
}
