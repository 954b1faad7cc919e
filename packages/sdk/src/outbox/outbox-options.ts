import { z } from 'zod';
import { DEFAULT_MAX_BATCH_ITEMS } from '../batching/index.js';
import { firstOptionIssue } from '../errors/index.js';
import { InvalidOutboxOptionsError } from './errors/index.js';
import { nodeOutboxFileSystem, type OutboxFileSystem } from './outbox-file-system.js';

/** When the outbox calls fsync; see docs/outbox.md for the trade-off. */
export type OutboxFsyncPolicy = 'batch' | 'segment' | 'never';

/** Options of {@link Outbox.open}. */
export interface OutboxOptions {
  /** Folder for segment files; created if missing. One process owns it at a time (lock file). */
  dir: string;
  /**
   * Bound on the bytes of all segment files. Past it the OLDEST segments are
   * deleted before a write, and the dropped record counts are reported.
   * @default 1 GiB (1_073_741_824)
   */
  maxBytes?: number;
  /**
   * A segment is closed and a new one started past this size. Capped at
   * `maxBytes / 4` so the bound is kept with a granularity of a quarter.
   * @default 16 MiB (16_777_216)
   */
  segmentBytes?: number;
  /**
   * `'batch'`: fsync after each write round, before `append()` resolves
   * (survives power loss; the default). `'segment'`: only when a segment
   * closes (survives a process crash, not a power loss). `'never'`: leave it to
   * the OS.
   * @default 'batch'
   */
  fsync?: OutboxFsyncPolicy;
  /**
   * Receives rate-limited warnings (at most one per kind per
   * `warningIntervalMs`, with counts): disk bound hit, write failed, torn tail
   * truncated, corrupt segment skipped. `details.kind` names the kind.
   * @default emits a Node process warning (`process.emitWarning`) of type `WeftWarning`
   */
  onWarning?: (message: string, details: Record<string, unknown>) => void;
  /** @default 60_000 */
  warningIntervalMs?: number;
  /** File system to use; for tests that count reads or inject `ENOSPC`. @default node:fs/promises */
  fileSystem?: OutboxFileSystem;
}

const isFunction = (value: unknown) => typeof value === 'function';

const schema = z
  .object({
    dir: z.string().min(1, 'must be a non-empty path'),
    maxBytes: z
      .number()
      .int()
      .min(4096)
      .default(1024 ** 3),
    segmentBytes: z
      .number()
      .int()
      .min(64)
      .default(16 * 1024 ** 2),
    fsync: z.enum(['batch', 'segment', 'never']).default('batch'),
    onWarning: z
      .custom<NonNullable<OutboxOptions['onWarning']>>(isFunction, { message: 'must be a function' })
      .default(() => emitProcessWarning),
    warningIntervalMs: z.number().int().positive().default(60_000),
    fileSystem: z
      .custom<OutboxFileSystem>(
        (value) =>
          typeof value === 'object' && value !== null && isFunction((value as OutboxFileSystem).open),
        {
          message: 'must implement OutboxFileSystem (open, mkdir, readdir, unlink)',
        },
      )
      .default(nodeOutboxFileSystem),
  })
  .strict();

/** Options with defaults applied. */
export type ResolvedOutboxOptions = Required<OutboxOptions>;

/** Validates `options` and applies defaults; throws {@link InvalidOutboxOptionsError} naming the bad option. */
export function resolveOutboxOptions(options: OutboxOptions): ResolvedOutboxOptions {
  const parsed = schema.safeParse(options);
  if (!parsed.success) throw new InvalidOutboxOptionsError(firstOptionIssue(parsed.error, options));
  const resolved = parsed.data;
  return { ...resolved, segmentBytes: Math.min(resolved.segmentBytes, Math.floor(resolved.maxBytes / 4)) };
}

function emitProcessWarning(message: string, details: Record<string, unknown>): void {
  process.emitWarning(message, {
    type: 'WeftWarning',
    code: `WEFT_OUTBOX_${String(details.kind).toUpperCase().replaceAll('-', '_')}`,
  });
}

/** Options of {@link Outbox.replay}. */
export interface ReplayOptions {
  /**
   * Most records per `send` call. Each call is one request of the replay
   * sender (`createReplaySender` batches no further), so this is the
   * batcher's bound.
   * @default 500
   */
  batchRecords?: number;
  /** A batch stops growing past this many payload bytes (a single larger record is sent alone). @default 1_000_000 */
  maxBatchBytes?: number;
}

const replaySchema = z
  .object({
    batchRecords: z.number().int().positive().default(DEFAULT_MAX_BATCH_ITEMS),
    maxBatchBytes: z.number().int().positive().default(1_000_000),
  })
  .strict();

/** Validates replay options and applies defaults; throws {@link InvalidOutboxOptionsError} naming the bad option. */
export function resolveReplayOptions(options: ReplayOptions): Required<ReplayOptions> {
  const parsed = replaySchema.safeParse(options);
  if (parsed.success) return parsed.data;
  throw new InvalidOutboxOptionsError(firstOptionIssue(parsed.error, options));
}
