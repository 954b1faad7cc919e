/**
 * The batcher's memory decisions, as pure functions (like `delivery-rules.ts`).
 *
 * ```
 * held bytes:  0 ─────────────── backpressure mark ──────── maxQueueBytes ──►
 *              (in flight too)    (see roomBytes)
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

/** Fraction of `maxQueueBytes` at which the batcher stops asking the pipeline for records, at the latest. */
export const BACKPRESSURE_FRACTION = 0.75;

/**
 * Bytes the batcher still wants before it asks the pipeline to hold back (0
 * when full). It wants what keeps every send slot busy with a full batch and
 * the next batch of each ready, and one filling —
 * `(2 × maxConcurrentBatches + 1) × maxBatchBytes`, in flight included — and
 * never more than 3/4 of `maxQueueBytes`.
 * More encoded bytes in memory would not send any faster: on a healthy server
 * the calls wait as snapshots instead, which share the caller's strings (an
 * agent's history is sent with every call but held once), while their encoded
 * records would each hold a copy.
 */
export function roomBytes(heldBytes: number, limits: QueueLimits): number {
  const { maxQueueBytes, maxBatchBytes, maxConcurrentBatches } = limits;
  const want = Math.min(
    Math.floor(maxQueueBytes * BACKPRESSURE_FRACTION),
    (2 * maxConcurrentBatches + 1) * maxBatchBytes,
  );
  return Math.max(0, want - heldBytes);
}

/** The batcher options the memory decisions read. */
export interface QueueLimits {
  maxQueueBytes: number;
  maxBatchBytes: number;
  maxConcurrentBatches: number;
}

/**
 * Whether a record of `size` bytes waits in memory (`queue`) or goes to the
 * outbox now (`spill`): only past the hard bound, which the pipeline reaches
 * only when its own bound on held calls is used up too.
 */
export function admissionVerdict(size: number, heldBytes: number, maxQueueBytes: number): 'queue' | 'spill' {
  return heldBytes + size > maxQueueBytes ? 'spill' : 'queue';
}
