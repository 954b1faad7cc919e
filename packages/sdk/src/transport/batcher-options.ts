import { MAX_BATCH_ITEMS, PROJECT_NAME } from '@weft/protocol';
import { DEFAULT_MAX_BATCH_ITEMS } from '../batching/index.js';
import { z } from 'zod';
import { ApiClient } from './api-client.js';
import type { Timers } from './timers.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { DEFAULT_RETRY_POLICY } from './delivery-rules.js';

/** Where records go when they cannot be sent now: the durable outbox (only `append` is used). */

/**
 * Default bytes per batch request. Assembling a body and writing it to the
 * socket are main-thread work done in one go, so a bound of 1 MiB keeps each
 * such step short (in an 80 KB burst, 4 MiB bodies added a couple of
 * milliseconds to the event loop's p99) while a batch of 1 KB records still
 * fills its 500 items.
 */
export const DEFAULT_MAX_BATCH_BYTES = 1024 * 1024;

/** Consecutive failed requests that open the circuit, by default. */
export const DEFAULT_CIRCUIT_FAILURE_THRESHOLD = 5;

/**
 * A record's payload: one byte array, or its parts in order (written one
 * after the other, so a caller that has a record as a prefix and a body never
 * copies them into one array first).
 */
export type RecordPayload = Uint8Array | readonly Uint8Array[];

export interface BatcherOutbox {
  /** Each record is its bytes, or its parts in order (see `RecordPayload`). */
  append(records: readonly RecordPayload[]): Promise<void>;
  /** Event: the server acknowledged a batch and nothing is queued or in flight any more. */
  queueDrained?(): void;
}

/** Options of {@link Batcher}. */
export interface BatcherOptions {
  project: string;
  client: ApiClient;
  /** @default 500 */
  maxBatchItems?: number;
  /** Body size bound of one batch, including its small header. @default 1 MiB ({@link DEFAULT_MAX_BATCH_BYTES}) */
  maxBatchBytes?: number;
  /** A queued record waits at most this long before its batch is sent. @default 100 */
  flushIntervalMs?: number;
  /** Requests per batch before it goes to the outbox (or fails, without one). @default 5 */
  maxAttempts?: number;
  /** Retry spacing: exponential with full jitter. @default { baseMs: 100, maxMs: 10_000 } */
  backoff?: { baseMs: number; maxMs: number };
  /** Batches with a request out at once. @default 2 */
  maxConcurrentBatches?: number;
  /** In-memory bound (queued, in flight and waiting to retry); records past it go to the outbox at once. @default 64 MiB */
  maxQueueBytes?: number;
  /**
   * Retry budget: batches waiting to be retried at once. Past it a failing
   * batch goes to the outbox instead (or, without one, keeps its send slot
   * while it waits, which slows intake instead of growing).
   * @default 8
   */
  maxRetriesInFlight?: number;
  /** Consecutive failed requests that open the circuit. @default 5 */
  circuitFailureThreshold?: number;
  /**
   * The client's circuit breaker, shared with the other senders (see
   * `serverCircuit`). Without one the batcher makes its own from
   * `circuitFailureThreshold` and `backoff`.
   */
  circuit?: CircuitBreaker | undefined;
  /** Cap on one retry delay, including one asked for by `Retry-After`. @default 60_000 */
  maxRetryDelayMs?: number;
  outbox?: BatcherOutbox | undefined;
  /** Rate-limited warnings (one per kind per minute, with counts). @default process.emitWarning */
  onWarning?: ((message: string, details: Record<string, unknown>) => void) | undefined;
  /** Called when the circuit closes again after being open: the moment to replay the outbox. */
  onRecovered?: (() => void) | undefined;
  /** @internal For tests: timers driven by hand. */
  timers?: Timers | undefined;
  /** @internal For tests: jitter source. */
  random?: (() => number) | undefined;
}

const fn = z.custom<(...args: never[]) => unknown>(
  (value) => typeof value === 'function',
  'must be a function',
);
const positiveInt = z.number().int().positive();
/** Validates {@link BatcherOptions} and fills in the defaults. */
export const batcherOptionsSchema = z.object({
  project: z
    .string()
    .regex(PROJECT_NAME, 'must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit'),
  client: z.instanceof(ApiClient, { error: 'must be an ApiClient' }),
  maxBatchItems: positiveInt.max(MAX_BATCH_ITEMS).default(DEFAULT_MAX_BATCH_ITEMS),
  maxBatchBytes: positiveInt.min(1024).default(DEFAULT_MAX_BATCH_BYTES),
  flushIntervalMs: z.number().int().nonnegative().default(100),
  maxAttempts: positiveInt.default(DEFAULT_RETRY_POLICY.maxAttempts),
  backoff: z
    .object({ baseMs: z.number().int().nonnegative(), maxMs: z.number().int().nonnegative() })
    .refine((b) => b.maxMs >= b.baseMs, 'maxMs must be at least baseMs')
    .default(DEFAULT_RETRY_POLICY.backoff),
  maxConcurrentBatches: positiveInt.default(2),
  maxQueueBytes: positiveInt.default(64 * 1024 * 1024),
  maxRetriesInFlight: z.number().int().nonnegative().default(DEFAULT_RETRY_POLICY.maxRetriesInFlight),
  circuitFailureThreshold: positiveInt.default(DEFAULT_CIRCUIT_FAILURE_THRESHOLD),
  circuit: z.instanceof(CircuitBreaker, { error: 'must be a CircuitBreaker' }).optional(),
  maxRetryDelayMs: z.number().int().nonnegative().default(DEFAULT_RETRY_POLICY.maxRetryDelayMs),
  outbox: z
    .custom<BatcherOutbox>(
      (v) => typeof (v as BatcherOutbox)?.append === 'function',
      'must have an append(records) method',
    )
    .optional(),
  onWarning: fn.optional(),
  onRecovered: fn.optional(),
  timers: z
    .custom<Timers>((v) => typeof (v as Timers)?.setTimeout === 'function', 'must be a Timers object')
    .optional(),
  random: fn.optional(),
});

/** Options after validation, defaults filled in. */
export type BatcherOptionsParsed = z.output<typeof batcherOptionsSchema>;
