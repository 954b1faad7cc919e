import type { LoopLag } from '../diagnostics/index.js';
import type { OutboxStats } from '../outbox/index.js';
import type { FeedbackStats } from '../feedback/index.js';
import { ALL_SAMPLED, type SamplingStats } from '../sampling/index.js';
import type { ClientParts } from './client-parts.js';

/** What `client.diagnostics()` reports. Gauges are "now"; counters are since init. */
export interface Diagnostics {
  /** Event-loop lag in ms, sampled at 10 Hz. */
  loopLag: LoopLag;
  /** Deferred-work pool: slots, tasks running, tasks waiting. */
  pool: { concurrency: number; running: number; waiting: number };
  /** Calls started and not ended (the in-flight registry). */
  inFlightCalls: number;
  /** Units of work (call records, object saves) registered and not settled; what `flush()` waits for. */
  pendingUnits: number;
  /** Records waiting for the pool, and counters of records scheduled and finalized. */
  /**
   * Records queued for the pipeline, scheduled and finalized so far; bytes
   * their snapshots hold while they wait (estimated), now and at most.
   */
  pipeline: {
    intake: number;
    scheduled: number;
    finalized: number;
    waitingBytes: number;
    peakWaitingBytes: number;
  };
  /** The batcher's in-memory queue. */
  queue: { records: number; bytes: number; inFlightBatches: number; circuit: string };
  /** Record outcomes and retried requests. */
  delivery: { sent: number; spilled: number; failed: number; retries: number };
  /** Object saves: digests known to be on the server (LRU-bounded), uploads. */
  objects: {
    knownDigests: number;
    knownDigestsMax: number;
    uploadsInFlight: number;
    uploaded: number;
    skippedKnown: number;
    failed: number;
  };
  /** The durable outbox, once opened. */
  outbox: OutboxStats | undefined;
  /** Sampling: the rate, calls sampled out, calls held for tail rules, traces kept / dropped / dropped past the bound. */
  sampling: SamplingStats;
  /** Feedback not sent because it named no call (a call sampling left out). */
  feedback: FeedbackStats;
  /**
   * Values sent once (undefined when off): records that had large values,
   * value items sent, the bytes sent for those records (value items
   * included), digests remembered as delivered.
   */
  dedup: { records: number; valuesSent: number; bytesAfter: number; knownValues: number } | undefined;
  /** Pipeline problems reported (each logged; see the `weft:problem` diagnostics channel). */
  problems: number;
}

/**
 * A client's diagnostics, read from its parts: loop lag (cumulative since
 * init or the last `resetLoopLag` read), pool, pipeline and batcher gauges,
 * objects, outbox, problems reported.
 */
export function readDiagnostics(parts: ClientParts, resetLoopLag: boolean): Diagnostics {
  const batcher = parts.batcher?.stats;
  return {
    loopLag: parts.loopLag.read(resetLoopLag),
    pool: { concurrency: parts.pool.concurrency, running: parts.pool.running, waiting: parts.pool.waiting },
    inFlightCalls: parts.inFlight.size,
    pendingUnits: parts.barrier.outstanding,
    pipeline: parts.pipeline.stats,
    queue: {
      records: batcher?.queuedRecords ?? 0,
      bytes: batcher?.queuedBytes ?? 0,
      inFlightBatches: batcher?.inFlightBatches ?? 0,
      circuit: batcher?.circuit ?? 'closed',
    },
    delivery: {
      sent: batcher?.sent ?? 0,
      spilled: batcher?.spilled ?? 0,
      failed: batcher?.failed ?? 0,
      retries: batcher?.retries ?? 0,
    },
    objects: parts.store.stats,
    outbox: parts.keeper?.stats,
    sampling: parts.sampler?.stats ?? { ...ALL_SAMPLED },
    feedback: parts.feedback.stats,
    dedup: parts.dedup?.stats,
    problems: parts.warnings.total,
  };
}
