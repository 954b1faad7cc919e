/**
 * How far the pool's work is behind the caller, in bytes: the snapshots of
 * records queued for the pool (their strings' characters and slots, known
 * in O(1) from each tape, plus a fixed cost per record for the call and its
 * job). The Pipeline adds a record when it is submitted and removes it when
 * the pool picks it up; the Pool reads {@link pressure} to decide how long
 * it may hold the event loop.
 *
 * Why it exists: a record whose snapshot waits keeps its strings alive. In a
 * burst of 80 KB calls with the pool held to 1 ms per turn, thousands of
 * output strings waited at once; they outlived the young generation, so the
 * garbage collector copied and promoted them (half of all CPU) and the
 * process peaked at four times its untraced memory. Letting the pool work
 * longer while it is behind keeps each string's life short.
 */
export class Backlog {
  /** Bytes from which the pool takes longer slices ({@link Pressure.Behind}). */
  readonly #behindBytes: number;
  /** Bytes past which the pool works until it is back under them ({@link Pressure.Over}): the bound. */
  readonly #maxBytes: number;
  #bytes = 0;
  #peak = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#behindBytes = maxBytes / 4;
  }

  add(bytes: number): void {
    this.#bytes += bytes + RECORD_OVERHEAD_BYTES;
    if (this.#bytes > this.#peak) this.#peak = this.#bytes;
  }

  remove(bytes: number): void {
    this.#bytes -= bytes + RECORD_OVERHEAD_BYTES;
  }

  get pressure(): Pressure {
    if (this.#bytes > this.#maxBytes) return Pressure.Over;
    return this.#bytes > this.#behindBytes ? Pressure.Behind : Pressure.None;
  }

  /** Bytes waiting now, and the most that waited at once. */
  get stats(): { bytes: number; peakBytes: number } {
    return { bytes: this.#bytes, peakBytes: this.#peak };
  }
}

/** What a waiting record costs beyond its strings: the call record, its job, the tape arrays' headers. */
const RECORD_OVERHEAD_BYTES = 512;

/** How hard the pool works (see {@link Backlog}). */
export const Pressure = {
  /** Slices of `SLICE`: the caller's turns come first. */
  None: 0,
  /** Slices of `BEHIND_SLICE`: catch up while the caller goes on. */
  Behind: 1,
  /** No slice limit until back under the bound: the bound holds, the loop waits. */
  Over: 2,
} as const;
export type Pressure = (typeof Pressure)[keyof typeof Pressure];

/**
 * Default bound of {@link Backlog} (the `maxWaitingBytes` option). Well under
 * V8's young generation (16 MiB semi-spaces), so what waits dies young: in
 * paired 80 KB runs of the side-by-side bench, 4 MiB instead of 32 MiB cut
 * the burst's CPU and wall time by about a fifth and its loop-lag p99 by a
 * third; 1 KB runs did not move (bench/RESULTS.md, "80 KB: what the GC
 * promotes").
 */
export const DEFAULT_MAX_WAITING_BYTES = 4 * 1024 * 1024;
