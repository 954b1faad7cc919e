import cluster from 'node:cluster';
import { once } from 'node:events';
import { WeftError } from '@weft/protocol';
import { startServer } from '@weft/server';
import { ExitCode } from '../../exit/index.js';
import { stopOnProcessSignals } from './stop-signal.js';

/** The worker's slot (0 to N−1), set by the primary; slot 0 runs the replica's background jobs. */
export const WORKER_SLOT_ENV = 'WEFT_SERVE_WORKER_SLOT';

/** What a worker tells the primary: it listens (at `url`), or it could not start (why). */
export type WorkerReport =
  | { kind: 'listening'; url: string }
  | { kind: 'failed'; code: string; message: string };

/** What the primary tells a worker: drain and exit. */
export interface StopOrder {
  kind: 'stop';
}

/**
 * One worker of `weft serve --workers N`: the server on the primary's port
 * (node:cluster hands it connections), with its own ClickHouse connection
 * pools and insert batcher. Only slot 0 runs what a replica runs once —
 * retention passes, the scheduled export, the monitoring scheduler — so a
 * replica with workers does the same background work as one without; a
 * replacement for slot 0 takes the jobs over. Drains and exits on the
 * primary's stop order, or on SIGINT/SIGTERM (a terminal's Ctrl+C reaches
 * every process of the group). If the primary dies, Node's cluster worker
 * exits at once: what it acknowledged is stored, and clients re-send the rest.
 */
export async function serveAsWorker(options: Parameters<typeof startServer>[0]): Promise<number> {
  const lead = process.env[WORKER_SLOT_ENV] === '0';
  const signals = stopOnProcessSignals();
  const stop = new AbortController();
  signals.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const onOrder = (order: StopOrder) => {
    if (order?.kind === 'stop') stop.abort();
  };
  process.on('message', onOrder);
  try {
    const server = await startServer({
      ...options,
      ...(lead ? {} : { backgroundJobs: false, monitoring: { scheduler: false } }),
    }).catch(async (error: unknown) => {
      await report({
        kind: 'failed',
        code: WeftError.isInstance(error) ? error.code : 'WEFT_WORKER_FAILED',
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    });
    await report({ kind: 'listening', url: server.url });
    if (!stop.signal.aborted) await once(stop.signal, 'abort');
    await server.close();
    return ExitCode.ok;
  } finally {
    signals.dispose();
    process.off('message', onOrder);
    // The IPC channel would keep the process alive.
    cluster.worker?.disconnect();
  }
}

/** Sends a report to the primary and waits until it is handed over. */
function report(message: WorkerReport): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}
