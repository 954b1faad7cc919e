import cluster, { type Worker } from 'node:cluster';
import { type WeftErrorCode, WeftError } from '@weft/protocol';
import {
  openStorage,
  parseStorageUrl,
  type RunningServer,
  type StorageTarget,
  type startServer,
} from '@weft/server';
import { UsageError } from '../../errors/index.js';
import type { CliIo } from '../../io/index.js';
import { type StopOrder, WORKER_SLOT_ENV, type WorkerReport } from './serve-worker.js';

/** A replacement for a worker that died this soon after it started waits a little first (no fork storm). */
const QUICK_DEATH_MS = 10_000;
const REPLACE_DELAY_MS = 1_000;

/**
 * Refuses `--workers N` (N > 1) on a storage that one process must own:
 * SQLite (one writer per database file: more processes would queue on its
 * lock) and chDB (the engine runs inside the process that opened the folder).
 */
export function refuseWorkersOn(target: StorageTarget | undefined, workers: number): void {
  if (target === undefined || target.kind === 'sqlite') {
    throw new UsageError(
      `--workers ${workers} needs ClickHouse servers (--storage clickhouse://…): SQLite has one writer per database file, so more server processes would only queue on its lock. Run one process (--workers 1).`,
    );
  }
  if (target.options.chdbPath !== undefined) {
    throw new UsageError(
      `--workers ${workers} needs ClickHouse servers (--storage clickhouse://…): chDB runs ClickHouse inside the one process that opened its folder, so other processes cannot share it. Run one process (--workers 1).`,
    );
  }
}

/**
 * The primary of `weft serve --workers N` (ClickHouse servers only): runs
 * the schema migrations once, then forks N workers (node:cluster, the same
 * command line) that listen on one port. node:cluster's round-robin
 * scheduling (the default on Linux) has the primary accept each connection
 * and hand it to the next worker, which spreads keep-alive clients evenly;
 * Node 20 has no SO_REUSEPORT listening. A worker that dies is replaced in
 * its slot; `close()` orders every worker to drain (in-flight requests
 * answered, final inserts done) and resolves once all have exited.
 * Resolves once every worker listens; rejects with the first worker's error
 * if one cannot start.
 */
export async function startWorkers(
  options: NonNullable<Parameters<typeof startServer>[0]>,
  count: number,
  io: CliIo,
): Promise<RunningServer> {
  // Migrations once, before any worker opens the database (each worker's
  // open then finds the schema current and changes nothing).
  await (await openStorage(parseStorageUrl(options.storage as string, options.storageCredentials))).close();

  const slots = new Map<Worker, number>();
  let closing = false;
  // Until every worker listens, a death is a failed start (reported by startWorkers), not one to replace.
  let ready = false;
  const fork = (slot: number): Worker => {
    const worker = cluster.fork({ [WORKER_SLOT_ENV]: String(slot) });
    slots.set(worker, slot);
    const started = Date.now();
    worker.on('exit', (code, signal) => {
      slots.delete(worker);
      if (closing || !ready) return;
      io.stderr.write(
        `weft: worker ${slot + 1} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting a replacement\n`,
      );
      const delay = Date.now() - started < QUICK_DEATH_MS ? REPLACE_DELAY_MS : 0;
      setTimeout(() => {
        if (closing) return;
        const replacement = fork(slot);
        listeningUrl(replacement).then(
          () => io.stderr.write(`weft: worker ${slot + 1} is back (pid ${replacement.process.pid})\n`),
          // Its exit is reported (and replaced) by its own exit handler.
          () => {},
        );
      }, delay);
    });
    return worker;
  };

  const workers = Array.from({ length: count }, (_, slot) => fork(slot));
  let url: string;
  try {
    const urls = await Promise.all(workers.map(listeningUrl));
    url = urls[0] as string;
    ready = true;
  } catch (error) {
    await stopAll();
    throw error;
  }

  async function stopAll(): Promise<void> {
    closing = true;
    const exits = [...slots.keys()].map(
      (worker) =>
        new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    );
    for (const worker of slots.keys()) {
      if (worker.isConnected()) worker.send({ kind: 'stop' } satisfies StopOrder);
      else worker.kill('SIGTERM');
    }
    await Promise.all(exits);
  }

  let stopping: Promise<void> | undefined;
  const { port } = new URL(url);
  return {
    url,
    host: options.host ?? '127.0.0.1',
    port: Number(port),
    close() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}

/** The URL a worker reports once it listens; rejects with its error when it cannot start. */
function listeningUrl(worker: Worker): Promise<string> {
  return new Promise((resolve, reject) => {
    const onMessage = (report: WorkerReport) => {
      if (report?.kind === 'listening') {
        done();
        resolve(report.url);
      } else if (report?.kind === 'failed') {
        done();
        reject(new WeftError({ code: report.code as WeftErrorCode, message: report.message }));
      }
    };
    const onExit = (code: number, signal: string | null) => {
      done();
      reject(new Error(`a worker exited (${signal ?? `code ${code}`}) before it listened`));
    };
    const done = () => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
  });
}
