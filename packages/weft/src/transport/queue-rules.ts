/**
 * The batcher's memory decisions, as pure functions (like `delivery-rules.ts`).
 *
 * ```
 * held bytes:  0 ─────────────── backpressure mark ──────── maxQueueBytes ──►
 *              │  room: the pipeline│ full: the pipeline   │ over: records go
 *              │  hands records over│ holds calls as       │ to the outbox (or
 *              │                    │ snapshots (bounded)  │ fail without one)
 * ```
 *
 * A healthy server that is slower than the burst must never make records
 * spill: the outbox is for a server that cannot take data. So the batcher
 * tells the pipeline how many more bytes it wants (`roomBytes`) well before
 * its hard bound; the pipeline then keeps further calls as snapshots — which
 * share the caller's strings — until a batch is acknowledged. The quarter of
 * `maxQueueBytes` above the mark absorbs records the pool was already
 * encoding when the room ran out, and records of other kinds (feedback).
 */

/** Fraction of `maxQueueBytes` at which the batcher stops asking the pipeline for records. */
export const BACKPRESSURE_FRACTION = 0.75;

/** Bytes the batcher still wants before it asks the pipeline to hold back (0 when full). */
export function roomBytes(heldBytes: number, maxQueueBytes: number): number {
  return Math.max(0, Math.floor(maxQueueBytes * BACKPRESSURE_FRACTION) - heldBytes);
}

/**
 * Whether a record of `size` bytes waits in memory (`queue`) or goes to the
 * outbox now (`spill`): only past the hard bound, which the pipeline reaches
 * only when its own bound on held calls is used up too.
 */
export function admissionVerdict(size: number, heldBytes: number, maxQueueBytes: number): 'queue' | 'spill' {
  return heldBytes + size > maxQueueBytes ? 'spill' : 'queue';
}
