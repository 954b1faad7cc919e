import type { CallRecord } from '../calls/index.js';
import { outsideCalls } from '../context/index.js';

/**
 * Calls that started and have not ended. A call leaves it when it ends, so it
 * holds only what is running (never a growing history).
 *
 * One shared, unref'd ticker (not a timer per call) sends the start of calls
 * still running after `startDelayMs`, so a long agent run is visible while it
 * runs. The set iterates in start order, so the ticker stops at the first call
 * that is not due yet.
 */
/** What in-flight calls are handed to when due: the client's `Pipeline`. */
export interface StartSubmitter {
  submit(call: CallRecord, kind: 'start'): void;
}

export class InFlight {
  readonly #calls = new Set<CallRecord>();
  readonly #startDelayMs: number;
  readonly #pipeline: StartSubmitter;
  #ticker: NodeJS.Timeout | undefined;

  /** @param pipeline where the start of a call still running after `startDelayMs` goes. */
  constructor(startDelayMs: number, pipeline: StartSubmitter) {
    this.#startDelayMs = startDelayMs;
    this.#pipeline = pipeline;
  }

  get size(): number {
    return this.#calls.size;
  }

  /** Constant work on the caller's turn. */
  add(call: CallRecord): void {
    this.#calls.add(call);
    if (this.#ticker === undefined) this.#arm();
  }

  /** Constant work on the caller's turn. */
  delete(call: CallRecord): void {
    this.#calls.delete(call);
  }

  stop(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #arm(): void {
    const period = Math.min(1_000, Math.max(20, Math.floor(this.#startDelayMs / 4)));
    // Outside the caller's context: the ticker must not retain the first call's frame.
    this.#ticker = outsideCalls(() => setInterval(() => this.#tick(), period).unref());
  }

  #tick(): void {
    if (this.#calls.size === 0) {
      this.stop();
      return;
    }
    const due = performance.now() - this.#startDelayMs;
    for (const call of this.#calls) {
      if (call.startedAtPerf > due) break;
      if (!call.startSubmitted) {
        call.startSubmitted = true;
        this.#pipeline.submit(call, 'start');
      }
    }
  }
}
