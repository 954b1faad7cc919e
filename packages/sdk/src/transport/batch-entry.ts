import type { WeftError } from '@weft/protocol';
import type { CircuitState } from './circuit-breaker.js';

/** One encoded call item handed to the batcher by the pipeline. */
export interface CallRecord {
  /** Call id (for reporting). */
  callId: string;
  /** msgpack bytes of ONE protocol call item (`{ type: 'start' | 'end' | 'complete', … }`); never re-encoded here. */
  bytes: Uint8Array;
  /** Called exactly once per record with its final outcome. */
  done: (outcome: RecordOutcome) => void;
}

/**
 * `sent`: the server acknowledged it (`missingValues`: deduplicated values
 * the batch referred to that the server lacks, from its answer). `spilled`:
 * it is durably in the outbox. `failed`: it is lost, and `error` says why.
 */
export type RecordOutcome =
  | { status: 'sent'; missingValues?: readonly string[] }
  | { status: 'spilled' }
  | { status: 'failed'; error: WeftError };

/** A record in the batcher, from `add` to its one outcome. */
export interface Entry {
  record: CallRecord;
  /** Position in add order; `flush()` waits for every entry below its mark. */
  seq: number;
  /** Counted in the in-memory bound (false for records spilled straight from `add`). */
  held: boolean;
  settled: boolean;
}

/** Entries sent together, and the retryable failures their requests met. */
export interface Batch {
  entries: Entry[];
  /** Requests made for these entries that failed retryably. */
  attempts: number;
}

export const SENT: RecordOutcome = { status: 'sent' };
export const SPILLED: RecordOutcome = { status: 'spilled' };

/** `sent`, with the `missingValues` of the server's answer when it names any. */
export function sentOutcome(body: unknown): RecordOutcome {
  const missing = (body as { missingValues?: unknown } | null | undefined)?.missingValues;
  if (!Array.isArray(missing) || missing.length === 0) return SENT;
  return {
    status: 'sent',
    missingValues: missing.filter((digest): digest is string => typeof digest === 'string'),
  };
}

/** A `flush()` waiting for the entries added before it. */
export interface FlushWaiter {
  /** Entries with `seq` below this count. */
  mark: number;
  remaining: number;
  resolve: () => void;
}

/** The batcher's diagnostics gauges and counters. */
export interface BatcherStats {
  queuedRecords: number;
  queuedBytes: number;
  inFlightBatches: number;
  sent: number;
  spilled: number;
  failed: number;
  retries: number;
  circuit: CircuitState;
}
