import { type FileHandle, open } from 'node:fs/promises';
import { debuglog } from 'node:util';
import { type EvaluationRowResult, evaluationRowResult, modelUsage } from '@weft/protocol';
import { z } from 'zod';
import {
  freeTextRedaction,
  redactException,
  scrubStrings,
  Sanitizer,
  type SanitizeOptions,
} from '../values/index.js';
import { CheckpointOpenFailedError, CheckpointWriteFailedError } from './errors/index.js';
import type { RowResult } from './row-result.js';
import { rowKey } from './row-key.js';
import { type RunMarker, runMarker } from './run-marker.js';

const log = debuglog('weft');

/** How one append ended. Not exceptional either way: a failed row never aborts a run. */
export type CheckpointAppendResult =
  | { status: 'written' }
  | { status: 'failed'; error: CheckpointWriteFailedError };

/** What `open(…, { resume: true })` found in an existing checkpoint. */
export interface CheckpointResumeState {
  /** Finished results, one per (rowIndex, trial); a later line for the same key wins. */
  results: CheckpointedResult[];
  /** Bytes of a torn last line (no trailing newline) cut off at open; 0 when the file ended cleanly. */
  tornBytes: number;
  /** 1-based numbers of complete lines that were not a row result or run marker; skipped, their rows run again. */
  corruptLines: number[];
  /** Run markers, in file order (see {@link RunMarker}). */
  runs: RunMarker[];
}

/** A row result as a checkpoint line holds it: with its usage, and the ids of its call and run when traced. */
export type CheckpointedResult = RowResult & { callId?: string; runId?: string };

const optionsSchema = z.object({
  resume: z.boolean().default(false),
  syncEachRow: z.boolean().default(true),
  readChunkBytes: z
    .number()
    .int()
    .min(1_024)
    .default(1 << 20),
});

/** Options of {@link Checkpoint.open}. */
export interface CheckpointOptions {
  /**
   * Keep the rows already in the file (repairing a torn last line once) and
   * append after them. When false the file is created or emptied.
   * @default false
   */
  resume?: boolean;
  /**
   * Make each row durable (`fdatasync`) before its `append()` resolves. Rows
   * that arrive while a sync is running share the next one (group commit),
   * so the cost is about one fdatasync per burst of concurrent rows rather
   * than per row; turn it off to trade crash safety of the last rows for speed.
   * @default true
   */
  syncEachRow?: boolean;
  /** @default 1 MiB. Read size of the resume scan. */
  readChunkBytes?: number;
  /**
   * Redaction rules and limits of the values written (the client's, without
   * its object and file hooks), so a checkpoint line holds what the row's
   * call would send: the safe form of the output, redacted by the same keys
   * and function, its error text scrubbed of the row's redacted values.
   * @default the default rules (DEFAULT_REDACTED_ENDINGS)
   */
  values?: SanitizeOptions;
  /** Opens the file; a seam for fault-injection tests. @default fs.promises.open */
  openFile?: (path: string, flags: string) => Promise<FileHandle>;
}

interface PendingLine {
  bytes: Buffer;
  what: string;
  resolve: (result: CheckpointAppendResult) => void;
}

/**
 * The checkpoint of an evaluation run: a JSONL file of
 * {@link EvaluationRowResult}s, one line per finished row × trial.
 *
 * One writer serializes appends in order. Each row is one positioned
 * `write()` of its whole line on a `FileHandle` (libuv's thread pool, off the
 * event loop), and `append()` resolves only once that line is synced. The
 * writer tracks the end of the last good line itself, so appends never read
 * or stat the file; a failed write is cut back to that offset, so a bad row
 * never corrupts the next. The one read of the file is the resume scan in
 * {@link Checkpoint.open}, which also truncates a torn last line — once.
 */
export class Checkpoint {
  readonly path: string;
  readonly #fh: FileHandle;
  readonly #sync: boolean;
  readonly #values: SanitizeOptions | undefined;
  readonly #resumed: CheckpointResumeState;
  readonly #finished: Set<string>;
  /** End of the last complete line: where the next write goes. */
  #position: number;
  #pending: PendingLine[] = [];
  #draining: Promise<void> | undefined;
  /** Set when a failed write could not be cut back; every later append fails with it. */
  #broken: unknown;
  #closing: Promise<void> | undefined;
  #written = 0;
  #failed = 0;

  private constructor(
    path: string,
    fh: FileHandle,
    sync: boolean,
    resumed: CheckpointResumeState,
    position: number,
    values: SanitizeOptions | undefined,
  ) {
    this.path = path;
    this.#fh = fh;
    this.#sync = sync;
    this.#values = values;
    this.#resumed = resumed;
    this.#position = position;
    this.#finished = new Set(resumed.results.map((r) => rowKey(r.rowIndex, r.trial)));
  }

  /**
   * Opens (creates, or with `resume` reopens) a checkpoint.
   * @throws {CheckpointOpenFailedError} the file cannot be opened, read or truncated.
   */
  static async open(path: string, options: CheckpointOptions = {}): Promise<Checkpoint> {
    const { resume, syncEachRow, readChunkBytes } = optionsSchema.parse(options);
    const openFile = options.openFile ?? open;
    let fh: FileHandle | undefined;
    try {
      if (resume) {
        try {
          fh = await openFile(path, 'r+');
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
        }
      }
      if (fh === undefined) {
        return new Checkpoint(path, await openFile(path, 'w'), syncEachRow, emptyState(), 0, options.values);
      }
      const { state, goodBytes } = await scan(fh, readChunkBytes);
      if (state.tornBytes > 0) {
        // The only truncation outside a failed write: a crash mid-append left
        // part of a line. Later appends start at goodBytes and never look back.
        await fh.truncate(goodBytes);
        log('checkpoint %s: cut a torn last line of %d bytes at resume', path, state.tornBytes);
      }
      if (state.corruptLines.length > 0) {
        log('checkpoint %s: skipped corrupt lines %o', path, state.corruptLines);
      }
      return new Checkpoint(path, fh, syncEachRow, state, goodBytes, options.values);
    } catch (error) {
      await fh?.close().catch(() => undefined);
      throw new CheckpointOpenFailedError(path, error);
    }
  }

  /** What the resume scan found (empty when not resuming). */
  get resumed(): CheckpointResumeState {
    return this.#resumed;
  }

  /** True when (rowIndex, trial) was finished in an earlier run of this checkpoint. */
  isFinished(rowIndex: number, trial: number): boolean {
    return this.#finished.has(rowKey(rowIndex, trial));
  }

  /** Rows written and rows that failed to write since open. */
  get stats(): { written: number; failed: number; bytes: number } {
    return { written: this.#written, failed: this.#failed, bytes: this.#position };
  }

  /**
   * Appends one row result as a line. Resolves (never rejects) once the line
   * is durable — or with the reason it is not. `inputs` (the row) are not
   * written; their redacted values are scrubbed from the line's text.
   * `callId` and `runId` (the row's call and its run) are written with it, so
   * a resume can name where a row was first recorded.
   */
  append(
    result: EvaluationRowResult,
    context: { inputs?: unknown; callId?: string | undefined; runId?: string | undefined } = {},
  ): Promise<CheckpointAppendResult> {
    const what = `row ${result.rowIndex} trial ${result.trial}`;
    if (this.#closing) return Promise.resolve(this.#fail(what, new Error('the checkpoint is closed')));
    return this.#enqueue(this.#line(result, context), what);
  }

  /** Appends a run marker (a run started or ended); durable like a row. */
  markRun(marker: RunMarker): Promise<CheckpointAppendResult> {
    const what = `run ${marker.run} ${marker.callId}`;
    if (this.#closing) return Promise.resolve(this.#fail(what, new Error('the checkpoint is closed')));
    return this.#enqueue(JSON.stringify(marker), what);
  }

  #enqueue(line: string, what: string): Promise<CheckpointAppendResult> {
    // JSON.stringify escapes line breaks, so a record is always exactly one line.
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    return new Promise((resolve) => {
      this.#pending.push({ bytes, what, resolve });
      this.#kick();
    });
  }

  /**
   * The line of a row result: a value like any call's (safe form, redacted).
   * Never throws: the Sanitizer gives every value a JSON form, so a value
   * that cannot be written as is never turns the row into an error.
   */
  #line(
    result: EvaluationRowResult,
    context: { inputs?: unknown; callId?: string | undefined; runId?: string | undefined },
  ): string {
    const walk = new Sanitizer({ inputs: context.inputs, output: result.output }, this.#values);
    walk.step(Number.POSITIVE_INFINITY);
    const r = freeTextRedaction(walk.redactedStrings, this.#values);
    const output = scrubStrings((walk.result as { output: unknown }).output, r.secrets);
    const line: CheckpointedResult = { ...result, output: output === undefined ? null : output };
    if (result.error !== undefined) line.error = redactException(r, result.error);
    if (context.callId !== undefined) line.callId = context.callId;
    if (context.runId !== undefined) line.runId = context.runId;
    return JSON.stringify(line);
  }

  /** Waits for pending appends, then closes the file. Idempotent; a second call joins the first. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      while (this.#draining) await this.#draining;
      await this.#fh.close();
    })();
    return this.#closing;
  }

  #kick(): void {
    if (this.#draining) return;
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
      // A line may have arrived between the loop's last check and this callback.
      if (this.#pending.length > 0) this.#kick();
    });
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0);
      const written: PendingLine[] = [];
      for (const line of batch) {
        if (this.#broken !== undefined) {
          line.resolve(this.#fail(line.what, this.#broken));
          continue;
        }
        try {
          await this.#writeAll(line.bytes);
          written.push(line);
        } catch (error) {
          await this.#cutBack();
          line.resolve(this.#fail(line.what, error));
        }
      }
      if (written.length === 0) continue;
      if (this.#sync) {
        try {
          await this.#fh.datasync();
        } catch (error) {
          // The lines are in the file but not known durable: report them as failed.
          for (const line of written) line.resolve(this.#fail(line.what, error));
          continue;
        }
      }
      this.#written += written.length;
      for (const line of written) line.resolve({ status: 'written' });
    }
  }

  async #writeAll(bytes: Buffer): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.#fh.write(
        bytes,
        offset,
        bytes.length - offset,
        this.#position + offset,
      );
      offset += bytesWritten;
    }
    this.#position += bytes.length;
  }

  /** After a failed write, drop its partial bytes so the next line starts clean. */
  async #cutBack(): Promise<void> {
    try {
      await this.#fh.truncate(this.#position);
    } catch (error) {
      this.#broken = error;
    }
  }

  #fail(what: string, cause: unknown): CheckpointAppendResult {
    this.#failed++;
    return { status: 'failed', error: new CheckpointWriteFailedError(this.path, what, cause) };
  }
}

function emptyState(): CheckpointResumeState {
  return { results: [], tornBytes: 0, corruptLines: [], runs: [] };
}

/** Reads the file once, line by line by byte offset (so truncation is exact for any UTF-8). */
async function scan(
  fh: FileHandle,
  chunkBytes: number,
): Promise<{ state: CheckpointResumeState; goodBytes: number }> {
  const byKey = new Map<string, CheckpointedResult>();
  const corruptLines: number[] = [];
  const runs: RunMarker[] = [];
  let carry = Buffer.alloc(0);
  let position = 0;
  let goodBytes = 0;
  let line = 0;
  const buffer = Buffer.allocUnsafe(chunkBytes);
  for (;;) {
    const { bytesRead } = await fh.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data =
      carry.length > 0
        ? Buffer.concat([carry, buffer.subarray(0, bytesRead)])
        : buffer.subarray(0, bytesRead);
    let start = 0;
    for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
      line++;
      const parsed = parseLine(data.subarray(start, nl));
      if (parsed === undefined) corruptLines.push(line);
      else if ('run' in parsed) runs.push(parsed);
      else byKey.set(rowKey(parsed.rowIndex, parsed.trial), parsed);
      goodBytes += nl + 1 - start;
      start = nl + 1;
    }
    // Copy: `buffer` is reused by the next read.
    carry = Buffer.from(data.subarray(start));
  }
  return { state: { results: [...byKey.values()], tornBytes: carry.length, corruptLines, runs }, goodBytes };
}

function parseLine(bytes: Buffer): CheckpointedResult | RunMarker | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value === 'object' && value !== null && 'run' in value) {
    const marker = runMarker.safeParse(value);
    return marker.success ? marker.data : undefined;
  }
  // Validate, but keep the parsed object itself: fields this version does not know survive a resume.
  if (!evaluationRowResult.safeParse(value).success) return undefined;
  const result = value as CheckpointedResult;
  // Usage is summed into the run's summary and call: a line's malformed usage is dropped, not its row.
  if (result.usage !== undefined && !usageSchema.safeParse(result.usage).success) delete result.usage;
  return result;
}

const usageSchema = z.record(z.string(), modelUsage);
