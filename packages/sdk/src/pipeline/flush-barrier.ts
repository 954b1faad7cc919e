import type { FlushResult } from '../lifecycle/index.js';

/** How one unit of tracked work ended. */
export type UnitOutcome = 'sent' | 'spilled' | 'failed';

/** What the barrier itself counts: a {@link FlushResult} but for the outbox replay, which the client adds. */
export type BarrierReport = Omit<FlushResult, 'replayed'>;

/** One epoch: the units registered between two flushes. */
export interface Epoch {
  readonly id: number;
  outstanding: number;
  sent: number;
  spilled: number;
  failed: number;
  objects: number;
  objectsFailed: number;
}

interface Waiter {
  readonly epoch: number;
  readonly resolve: () => void;
}

/**
 * The flush barrier, by epochs rather than a set of every call.
 *
 * Each unit of work (a call record, an object upload) is registered in the
 * current epoch when it is created; continuations it spawns (nested object
 * saves, re-queued finalize) register in the SAME epoch, before the unit that
 * spawned them settles, so an epoch's count reaches zero only when all of its
 * chained work is done. `cut()` closes the current epoch (new work goes to the
 * next one, so a flush is never starved by calls arriving after it) and
 * `whenSettled(e)` resolves once every epoch ≤ e has nothing outstanding.
 *
 *   epochs:  [1: 0 left] [2: 3 left] [3 (current): 7 left]
 *   flush() → cut() = 3, waits for epochs 1..3; calls after it go to epoch 4.
 *
 * Memory is O(number of concurrent flushes), not O(calls).
 */
export class FlushBarrier {
  /** Open epochs in increasing order (Map keeps insertion order). */
  readonly #epochs = new Map<number, Epoch>();
  #current: Epoch;
  #waiters: Waiter[] = [];
  #outstanding = 0;

  constructor() {
    this.#current = this.#open(1);
  }

  /** The epoch new units go to. */
  get current(): Epoch {
    return this.#current;
  }

  /** Units registered and not yet settled, in all epochs. */
  get outstanding(): number {
    return this.#outstanding;
  }

  /** Registers a unit in `epoch` (a parent's epoch) or the current one. */
  register(epoch: Epoch = this.#current): Epoch {
    epoch.outstanding++;
    this.#outstanding++;
    return epoch;
  }

  /** Settles one unit of `epoch`. `kind` says what to count it as. */
  settle(epoch: Epoch, outcome: UnitOutcome | 'none', kind: 'call' | 'object' | 'other' = 'call'): void {
    epoch.outstanding--;
    this.#outstanding--;
    if (kind === 'call' && outcome !== 'none') epoch[outcome]++;
    else if (kind === 'object') {
      if (outcome === 'failed') epoch.objectsFailed++;
      else if (outcome !== 'none') epoch.objects++;
    }
    if (epoch.outstanding === 0) this.#release();
  }

  /** Closes the current epoch and returns its id; later units go to a new epoch. */
  cut(): number {
    const id = this.#current.id;
    this.#current = this.#open(id + 1);
    return id;
  }

  /** True when no epoch ≤ `id` has outstanding units. */
  isSettled(id: number): boolean {
    for (const epoch of this.#epochs.values()) {
      if (epoch.id > id) return true;
      if (epoch.outstanding > 0) return false;
    }
    return true;
  }

  /** Resolves when every epoch ≤ `id` has settled (at once if already so). */
  whenSettled(id: number): Promise<void> {
    if (this.isSettled(id)) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push({ epoch: id, resolve });
    });
  }

  /**
   * Sums the outcomes of epochs ≤ `id` and forgets the settled ones, so each
   * call is reported by exactly one flush.
   */
  report(id: number): BarrierReport {
    const result: BarrierReport = {
      sent: 0,
      spilled: 0,
      failed: 0,
      pending: 0,
      objects: 0,
      objectsFailed: 0,
    };
    for (const epoch of this.#epochs.values()) {
      if (epoch.id > id) break;
      result.sent += epoch.sent;
      result.spilled += epoch.spilled;
      result.failed += epoch.failed;
      result.objects += epoch.objects;
      result.objectsFailed += epoch.objectsFailed;
      result.pending += epoch.outstanding;
      epoch.sent = epoch.spilled = epoch.failed = epoch.objects = epoch.objectsFailed = 0;
      if (epoch.outstanding === 0 && epoch !== this.#current) this.#epochs.delete(epoch.id);
    }
    return result;
  }

  #open(id: number): Epoch {
    const epoch: Epoch = { id, outstanding: 0, sent: 0, spilled: 0, failed: 0, objects: 0, objectsFailed: 0 };
    this.#epochs.set(id, epoch);
    return epoch;
  }

  #release(): void {
    if (this.#waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (this.isSettled(waiter.epoch)) waiter.resolve();
      else still.push(waiter);
    }
    this.#waiters = still;
  }
}
