import { type CallRecord, dropValues } from '../calls/index.js';
import { areTraceBitsSampled } from './trace-sampled.js';

/** Tail rules of `weft.init({ keep })`: keep a head-sampled-out trace when one matches. */
export interface KeepRules {
  /** Keep the trace when any of its calls failed. @default false */
  errors?: boolean;
  /** Keep the trace when its root took longer than this. */
  slowerThanMs?: number;
  /** Most calls held for one trace; past it the trace is dropped (and counted). @default 1000 */
  maxCallsPerTrace?: number;
  /** Most calls held over all traces waiting for their root; past it the trace that would pass it is dropped. @default 10000 */
  maxHeldCalls?: number;
}

/** What `diagnostics().sampling` reports; counters are since init. */
export interface SamplingStats {
  sampleRate: number;
  /** Calls not recorded: in head-sampled-out traces with no tail rule, or in held traces once dropped. */
  sampledOutCalls: number;
  /** Calls held now (started, in a trace whose root has not ended). */
  heldCalls: number;
  /** Held traces a tail rule kept (sent whole). */
  tailKeptTraces: number;
  /** Held traces no tail rule kept (dropped whole when the root ended). */
  tailDroppedTraces: number;
  /** Held traces dropped because they passed `maxCallsPerTrace` or `maxHeldCalls`. */
  tailOverflowTraces: number;
}

/**
 * A head-sampled-out trace whose calls are held (recorded, not submitted)
 * until its root ends, because a tail rule may still keep it.
 */
export class HeldTrace {
  state: 'holding' | 'kept' | 'dropped' = 'holding';
  /** Calls of this trace started so far (the bound counts these). */
  started = 0;
  /** Any call of the trace failed. */
  errored = false;
  /** Finished calls waiting for the root's verdict, in finish order. */
  finished: CallRecord[] = [];
}

/**
 * Head sampling (decided once per trace at its root, from the trace id) and
 * tail rules (hold a sampled-out trace, keep it whole if it erred or was slow).
 * Exists only when `sampleRate < 1`: at the default the tracer has no sampler
 * and pays nothing for it.
 */
export class Sampler {
  readonly sampleRate: number;
  readonly #errors: boolean;
  readonly #slowerThanMs: number | undefined;
  readonly #tail: boolean;
  readonly #maxCallsPerTrace: number;
  readonly #maxHeldCalls: number;
  /** Which held trace a call belongs to; weak, so dropped calls are collected. */
  readonly #heldOf = new WeakMap<CallRecord, HeldTrace>();
  #held = 0;
  #sampledOut = 0;
  #kept = 0;
  #dropped = 0;
  #overflow = 0;

  constructor(sampleRate: number, keep: KeepRules | undefined) {
    this.sampleRate = sampleRate;
    this.#errors = keep?.errors === true;
    this.#slowerThanMs = keep?.slowerThanMs;
    this.#tail = this.#errors || this.#slowerThanMs !== undefined;
    this.#maxCallsPerTrace = keep?.maxCallsPerTrace ?? 1_000;
    this.#maxHeldCalls = keep?.maxHeldCalls ?? 10_000;
  }

  /** The head decision for a new root, on the last 32 bits its trace id will have (see `isTraceSampled`). */
  keepsTrace(traceBits: number): boolean {
    return areTraceBitsSampled(traceBits, this.sampleRate);
  }

  /** A call that is not recorded. */
  countSampledOut(): void {
    this.#sampledOut++;
  }

  /** A new held trace for a sampled-out root, or `undefined` when no tail rule is set (the trace is simply not recorded). */
  hold(): HeldTrace | undefined {
    return this.#tail ? new HeldTrace() : undefined;
  }

  /** The held trace `call` belongs to, if any. */
  heldOf(call: CallRecord): HeldTrace | undefined {
    return this.#heldOf.get(call);
  }

  /** A call of a held trace started; drops the trace when it passes a bound. */
  started(held: HeldTrace, call: CallRecord): void {
    this.#heldOf.set(call, held);
    if (held.state !== 'holding') return;
    held.started++;
    this.#held++;
    if (held.started > this.#maxCallsPerTrace || this.#held > this.#maxHeldCalls) {
      this.#overflow++;
      this.#release(held, 'dropped');
    }
  }

  /**
   * A call of a held trace ended. Returns the calls to submit now: none while
   * the trace is held or once dropped; the whole trace when its root ends and a
   * rule keeps it; a late call of a kept trace on its own.
   */
  finished(held: HeldTrace, call: CallRecord): readonly CallRecord[] {
    if (call.failed) held.errored = true;
    if (held.state === 'kept') return [call];
    if (held.state === 'dropped') {
      this.#sampledOut++;
      // Never submitted: the pipeline will not give its values back.
      dropValues(call);
      return [];
    }
    held.finished.push(call);
    if (call.parentId !== null) return [];
    const slow = this.#slowerThanMs !== undefined && (call.summary?.latencyMs ?? 0) > this.#slowerThanMs;
    if ((this.#errors && held.errored) || slow) {
      this.#kept++;
      return this.#release(held, 'kept');
    }
    this.#dropped++;
    this.#release(held, 'dropped');
    return [];
  }

  get stats(): SamplingStats {
    return {
      sampleRate: this.sampleRate,
      sampledOutCalls: this.#sampledOut,
      heldCalls: this.#held,
      tailKeptTraces: this.#kept,
      tailDroppedTraces: this.#dropped,
      tailOverflowTraces: this.#overflow,
    };
  }

  /** Ends holding: the trace's count leaves the bound; its finished calls are returned (kept) or counted out (dropped). */
  #release(held: HeldTrace, state: 'kept' | 'dropped'): CallRecord[] {
    const finished = held.finished;
    held.state = state;
    held.finished = [];
    this.#held -= held.started;
    if (state === 'dropped') {
      this.#sampledOut += finished.length;
      for (const call of finished) dropValues(call);
    }
    return finished;
  }
}

/** Diagnostics of a client without a sampler (`sampleRate: 1`). */
export const ALL_SAMPLED: SamplingStats = {
  sampleRate: 1,
  sampledOutCalls: 0,
  heldCalls: 0,
  tailKeptTraces: 0,
  tailDroppedTraces: 0,
  tailOverflowTraces: 0,
};
