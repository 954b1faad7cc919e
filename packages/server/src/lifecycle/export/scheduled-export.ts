import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { callQuery, type ExportFormat, type ExportValues, exportQuery } from '@weft/protocol';
import type { Storage } from '../../storage/index.js';
import { EXPORT_EXTENSION, exportCalls } from './call-export.js';
import { DAY_MS, dayName, dayStart, hivePartition } from './hive-partition.js';

/** Options of {@link ScheduledExport}. */
export interface ScheduledExportOptions {
  storage: Storage;
  /** The folder: `<dir>/project=<name>/date=<YYYY-MM-DD>/calls.<format>`. */
  dir: string;
  /** @default 'parquet' */
  format?: ExportFormat;
  /** @default 'resolved' */
  values?: ExportValues;
  /**
   * Time between runs.
   * @default 1 hour
   */
  intervalMs?: number;
  /**
   * A day is exported once it ended this long ago, so calls still arriving
   * for it (an outbox replayed late) are in its file.
   * @default 1 hour
   */
  settleMs?: number;
  /** Reports a run that failed (the next run resumes). */
  onError?: (error: unknown) => void;
}

/** The file recording, per project, the last day whose file is complete. */
export const EXPORT_STATE_FILE = '_weft_export_state.json';

interface ExportState {
  version: 1;
  /** project → the last day (`YYYY-MM-DD`) exported. */
  exportedThrough: Record<string, string>;
}

/**
 * Exports every project's calls to a local folder, one file per project
 * and UTC day (Hive layout, see `hivePartition`), each day once it has
 * ended and settled. Resumable after a crash: a day's file is written
 * under a `.partial` name, fsynced, then renamed, and only then is the day
 * recorded in the state file (written the same way); a crash leaves at
 * most one `.partial` file, which the next run writes again from the start.
 * Days without calls get no file.
 */
export class ScheduledExport {
  readonly #o: Required<Omit<ScheduledExportOptions, 'onError'>> & Pick<ScheduledExportOptions, 'onError'>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #closed = false;

  constructor({
    format = 'parquet',
    values = 'resolved',
    intervalMs = 60 * 60_000,
    settleMs = 60 * 60_000,
    ...rest
  }: ScheduledExportOptions) {
    this.#o = { format, values, intervalMs, settleMs, ...rest };
  }

  /** Starts the runs (the first after `delayMs`); timers never keep the process alive. */
  start(delayMs = 30_000): void {
    if (this.#closed || this.#timer !== undefined) return;
    const tick = (wait: number) => {
      this.#timer = setTimeout(() => {
        this.run()
          .catch((error: unknown) => this.#o.onError?.(error))
          .finally(() => {
            if (!this.#closed) tick(this.#o.intervalMs);
          });
      }, wait);
      this.#timer.unref();
    };
    tick(delayMs);
  }

  /** Exports every settled day not exported yet; returns the files written. A run in progress is joined. */
  run(now = Date.now()): Promise<string[]> {
    const run = (this.#running ?? Promise.resolve()).catch(() => {}).then(() => this.#run(now));
    this.#running = run;
    return run;
  }

  /** Stops the timer and waits for a run in progress. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#running?.catch(() => {});
  }

  async #run(now: number): Promise<string[]> {
    const { storage, dir } = this.#o;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const state = await this.#readState();
    const lastDay = dayStart(now - this.#o.settleMs) - DAY_MS;
    const written: string[] = [];
    for (const { name: project } of await storage.listProjects()) {
      const through = state.exportedThrough[project];
      let day = through === undefined ? await this.#firstDay(project) : Date.parse(through) + DAY_MS;
      for (; day !== undefined && day <= lastDay && !this.#closed; day += DAY_MS) {
        const file = await this.#exportDay(project, day);
        if (file !== undefined) written.push(file);
        state.exportedThrough[project] = dayName(day);
        await this.#writeState(state);
      }
    }
    return written;
  }

  /** The day of the project's oldest call, or `undefined` when it has none. */
  async #firstDay(project: string): Promise<number | undefined> {
    const page = await this.#o.storage.queryCalls(
      callQuery.parse({ project, sort: { field: 'startedAt', direction: 'asc' }, limit: 1 }),
    );
    const oldest = page.calls[0];
    return oldest === undefined ? undefined : dayStart(oldest.startedAt);
  }

  /** Writes one day's file; `undefined` when the day has no calls. */
  async #exportDay(project: string, day: number): Promise<string | undefined> {
    const file = join(this.#o.dir, hivePartition(project, day), `calls.${EXPORT_EXTENSION[this.#o.format]}`);
    const partial = `${file}.partial`;
    const query = exportQuery.parse({
      startedAfter: day,
      startedBefore: day + DAY_MS,
      sort: { field: 'startedAt', direction: 'asc' },
    });
    const probe = await this.#o.storage.queryCalls(callQuery.parse({ ...query, project, limit: 1 }));
    if (probe.calls.length === 0) return undefined;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const handle = await open(partial, 'w', 0o600);
    try {
      const source = { project, query, values: this.#o.values };
      const chunks = exportCalls(this.#o.storage, source, this.#o.format);
      for await (const chunk of chunks) await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    await syncFolder(dirname(file));
    return file;
  }

  async #readState(): Promise<ExportState> {
    try {
      const parsed = JSON.parse(await readFile(join(this.#o.dir, EXPORT_STATE_FILE), 'utf8')) as ExportState;
      if (parsed.version === 1 && typeof parsed.exportedThrough === 'object') return parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return { version: 1, exportedThrough: {} };
  }

  async #writeState(state: ExportState): Promise<void> {
    const file = join(this.#o.dir, EXPORT_STATE_FILE);
    const partial = `${file}.partial`;
    const handle = await open(partial, 'w', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    await syncFolder(this.#o.dir);
  }
}

/** Makes a rename in `dir` durable (the folder's entry, not only the file's bytes). */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
