import { availableParallelism } from 'node:os';
import { DEFAULT_URL, type ModelPrice, PROJECT_NAME } from '@weft/protocol';
import { z } from 'zod';
import { DEFAULT_DEDUP_THRESHOLD_BYTES, DEFAULT_MAX_KNOWN_VALUES } from '../dedup/index.js';
import { firstOptionIssue, InvalidOptionsError } from '../errors/index.js';
import { DEFAULT_MAX_WAITING_BYTES } from '../pipeline/index.js';
import { MAX_DEPTH_LIMIT } from '../values/index.js';
import type { KeepRules } from '../sampling/index.js';

const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();
const redactKeyName = z.string().regex(/[\p{L}\p{N}]/u, 'must be a key name (with a letter or digit)');

/** A sensible pool size: the pool shares the event loop with the user, so a few slots suffice. */
function defaultConcurrency(): number {
  return Math.min(4, Math.max(2, availableParallelism()));
}

const schema = z.strictObject({
  project: z
    .string()
    .regex(PROJECT_NAME, 'must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit'),
  url: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().min(1).optional(),
  concurrency: positiveInt.max(256).default(defaultConcurrency),
  startDelayMs: nonNegativeInt.default(1_000),
  sliceBudget: positiveInt.default(2_000),
  maxWaitingBytes: positiveInt.min(1024 * 1024).default(DEFAULT_MAX_WAITING_BYTES),
  maxBatchItems: positiveInt.optional(),
  maxBatchBytes: positiveInt.optional(),
  flushIntervalMs: nonNegativeInt.optional(),
  maxAttempts: positiveInt.optional(),
  maxConcurrentBatches: positiveInt.optional(),
  maxQueueBytes: positiveInt.optional(),
  requestTimeoutMs: positiveInt.optional(),
  connections: positiveInt.optional(),
  objectUploadConcurrency: positiveInt.default(8),
  outbox: z.boolean().default(true),
  outboxDir: z.string().min(1).optional(),
  outboxMaxBytes: positiveInt.optional(),
  redactKeys: z
    .union([z.array(redactKeyName), z.set(redactKeyName)], {
      error: 'must be an array or a Set of key names, like ["ssn"] or new Set(["ssn"])',
    })
    .optional(),
  redact: z
    .custom<(key: string, value: unknown, path: readonly (string | number)[]) => boolean>(
      (v) => typeof v === 'function',
      'must be a function (key, value, path) => boolean',
    )
    .optional(),
  maxDepth: positiveInt.max(MAX_DEPTH_LIMIT).optional(),
  maxNodes: positiveInt.optional(),
  maxStringLength: positiveInt.optional(),
  maxArrayLength: positiveInt.optional(),
  exitTimeoutMs: nonNegativeInt.default(5_000),
  handleExit: z.boolean().default(true),
  setDefault: z.boolean().default(true),
  warningIntervalMs: positiveInt.default(10_000),
  dedupThresholdBytes: nonNegativeInt.default(DEFAULT_DEDUP_THRESHOLD_BYTES),
  maxKnownValues: positiveInt.default(DEFAULT_MAX_KNOWN_VALUES),
  sampleRate: z.number().min(0).max(1).default(1),
  keep: z
    .strictObject({
      errors: z.boolean().optional(),
      slowerThanMs: z.number().nonnegative().optional(),
      maxCallsPerTrace: positiveInt.optional(),
      maxHeldCalls: positiveInt.optional(),
    })
    .refine(
      (keep) => keep.errors === true || keep.slowerThanMs !== undefined,
      'needs a rule: `errors: true` and/or `slowerThanMs`',
    )
    .optional(),
  prices: z
    .record(
      z.string().min(1),
      z.strictObject({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        cachedInput: z.number().nonnegative().optional(),
        cacheWrite: z.number().nonnegative().optional(),
        reasoning: z.number().nonnegative().optional(),
      }),
    )
    .optional(),
});

/**
 * Options of {@link init}. Every field except `project` has a default; `project`,
 * `url` and `apiKey` fall back to `WEFT_PROJECT`, `WEFT_URL` and `WEFT_API_KEY`.
 */
export interface WeftOptions {
  /** Project the calls belong to. Falls back to `WEFT_PROJECT`. */
  project?: string;
  /** Trace server address. @default process.env.WEFT_URL ?? 'http://127.0.0.1:7420' */
  url?: string;
  /** Bearer token for the server. @default process.env.WEFT_API_KEY */
  apiKey?: string;
  /** Pool slots for deferred work (walking, digests, encoding). @default min(4, max(2, cores)) */
  concurrency?: number;
  /** A call still running after this long has its start sent, so it is visible while it runs. @default 1000 */
  startDelayMs?: number;
  /** Nodes walked per pool slice before yielding to the event loop. @default 2000 */
  sliceBudget?: number;
  /**
   * Bound on the memory held by finished calls waiting for the pipeline
   * (their snapshots' strings, estimated without a walk). Past a quarter of
   * it the pipeline takes longer turns to catch up; past it, it works until
   * back under it (the caller never blocks, the event loop waits). See
   * docs/transport.md. @default 4 MiB
   */
  maxWaitingBytes?: number;
  /** Batcher: most call records per HTTP request. */
  maxBatchItems?: number;
  /** Batcher: most bytes per HTTP request. */
  maxBatchBytes?: number;
  /** Batcher: longest time a record waits for its batch to fill. */
  flushIntervalMs?: number;
  /** Batcher: attempts per batch before it goes to the outbox. */
  maxAttempts?: number;
  /** Batcher: requests in flight at once. */
  maxConcurrentBatches?: number;
  /** Batcher: bytes kept in memory before records spill to the outbox. */
  maxQueueBytes?: number;
  /** HTTP request timeout. */
  requestTimeoutMs?: number;
  /** HTTP keep-alive connections to the server. */
  connections?: number;
  /** Object versions uploaded at once. @default 8 */
  objectUploadConcurrency?: number;
  /** Keep records the server could not take in a durable outbox on disk. @default true */
  outbox?: boolean;
  /** Outbox folder. @default `./.weft/outbox/<project>` */
  outboxDir?: string;
  /** Most bytes the outbox may use on disk. */
  outboxMaxBytes?: number;
  /**
   * Key names whose values are redacted, added to the default rules (which
   * stay on): `['ssn', 'x-tenant-secret']` or `new Set(['ssn'])`. Matched
   * whatever the key's case and separators: `x-api-key` also matches
   * `X_API_KEY` and `xApiKey`. See docs/values.md, "Redaction".
   */
  redactKeys?: readonly string[] | ReadonlySet<string>;
  /** Return true to redact the value at `key`. */
  redact?: (key: string, value: unknown, path: readonly (string | number)[]) => boolean;
  /** Value limits, one set for every walker (see docs/values.md, "Limits"). @default 100 (at most 400) */
  maxDepth?: number;
  /** @default 20,000 */
  maxNodes?: number;
  maxStringLength?: number;
  maxArrayLength?: number;
  /** Deadline of the flush run on SIGINT/SIGTERM and `beforeExit`. @default 5000 */
  exitTimeoutMs?: number;
  /** Flush on `beforeExit`, SIGINT and SIGTERM; at `exit` (after `process.exit()`), keep what is encoded in the outbox. @default true */
  handleExit?: boolean;
  /** Make this client the one module-level functions (`weft.op`, `weft.flush`…) use. @default true */
  setDefault?: boolean;
  /** Pipeline problems are summarised in one process warning per interval. @default 10000 */
  warningIntervalMs?: number;
  /**
   * Model prices in US dollars per million tokens, by model id, added to or
   * overriding the built-in table of `@weft/protocol` (see docs/cost.md).
   * A model with no price gets no cost, never 0.
   * @example { 'my-finetune': { input: 3, output: 12, cachedInput: 1.5 } }
   */
  prices?: Record<string, ModelPrice>;
  /**
   * Values sent once: a value in a call's inputs or output whose encoding is
   * at least this many bytes (a chat history, a system prompt, a document)
   * is sent to the server once and referred to by digest afterwards; readers
   * get the full value back (see docs/values.md, "Values sent once"). 0
   * sends every record whole.
   * @default 1024
   */
  dedupThresholdBytes?: number;
  /** Digests of values remembered as delivered to the server (LRU, ~100 bytes each). @default 100000 */
  maxKnownValues?: number;
  /**
   * Head sampling: the share of traces recorded, 0..1. Decided once per trace
   * at its root from the trace id's last 32 bits (deterministic, see
   * docs/tracing.md "Sampling"); every call of a trace follows its root.
   * A sampled-out call is not snapshotted and costs well under 1 µs.
   * @default 1
   */
  sampleRate?: number;
  /**
   * Tail rules for traces head sampling left out: their calls are recorded
   * (inputs and outputs ARE snapshotted) and held until the root ends, then
   * sent whole when any call failed (`errors: true`) or the root took longer
   * than `slowerThanMs`, else dropped. Bounded by `maxCallsPerTrace`
   * (default 1000) and `maxHeldCalls` (default 10000); a trace past a bound
   * is dropped and counted in `diagnostics().sampling`. No effect at rate 1.
   */
  keep?: KeepRules;
}

/** Switches only tests set (through `@weft/sdk/testing`'s `createClient`), never on `WeftOptions`. */
export interface TestOnlyOptions {
  /**
   * Makes `schedule` await pending digests inside its pool slot — the
   * deadlock this design exists to avoid. Used to show the starvation test fails
   * without the chained continuation.
   */
  awaitPendingInSlot?: boolean;
}

export type ResolvedOptions = z.output<typeof schema> & TestOnlyOptions;

/**
 * Validates options (after filling `project`, `url`, `apiKey` from the
 * environment) and throws {@link InvalidOptionsError} naming the first bad option.
 */
export function resolveOptions(options: WeftOptions, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionsError(
      '(root)',
      `weft.init expects an options object like { project: 'my-app' }, got ${String(options)}.`,
    );
  }
  const input = {
    ...options,
    project: options.project ?? env.WEFT_PROJECT,
    url: options.url ?? env.WEFT_URL ?? DEFAULT_URL,
    apiKey: options.apiKey ?? (env.WEFT_API_KEY || undefined),
  };
  if (input.project === undefined) {
    throw new InvalidOptionsError(
      'project',
      'Missing `project`: pass weft.init({ project: "my-app" }) or set WEFT_PROJECT.',
    );
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { option, detail } = firstOptionIssue(parsed.error, input);
  const hint =
    parsed.error.issues[0]?.code === 'unrecognized_keys' ? '; check the spelling against WeftOptions' : '';
  throw new InvalidOptionsError(option, `Invalid Weft options: ${detail}${hint}.`);
}
