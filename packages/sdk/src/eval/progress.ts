import type { Writable } from 'node:stream';
import { SingleBar } from 'cli-progress';

/** Where progress goes: a writable that may be a terminal. */
export type ProgressStream = Writable & { isTTY?: boolean; columns?: number };

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Row × trial units in the run, finished ones included. */
  total: number;
  /** Units already finished (resumed from a checkpoint). @default 0 */
  done?: number;
  /** @default process.stderr */
  stream?: ProgressStream;
  /** Label before the bar. @default 'evaluating' */
  label?: string;
}

/** Progress of a run: advance once per finished row × trial, stop once at the end. */
export interface Progress {
  advance(outcome: { error: boolean }): void;
  /** Draws the final state and releases the terminal. Idempotent. */
  stop(): void;
}

/** A progress that shows nothing. */
export const SILENT_PROGRESS: Progress = { advance() {}, stop() {} };

/**
 * A progress bar (done / total, errors, rows per second, ETA) on a terminal;
 * nothing at all when the stream is not a TTY (CI logs and pipes stay clean).
 * The rate counts only rows finished in this process, not resumed ones.
 */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (stream.isTTY !== true) return SILENT_PROGRESS;
  const bar = new SingleBar({
    stream: stream as NodeJS.WritableStream,
    format: `${options.label ?? 'evaluating'} |{bar}| {value}/{total} rows · {errors} errors · {rate}/s · ETA {eta_formatted}`,
    barsize: 24,
    hideCursor: false,
    etaBuffer: 50,
    // Redraw at most ~10 times a second: a 2,000 rows/s run must not spend its time drawing.
    fps: 10,
  });
  const started = performance.now();
  const resumed = options.done ?? 0;
  let done = resumed;
  let errors = 0;
  let stopped = false;
  bar.start(options.total, done, { errors, rate: '0.0' });
  return {
    advance({ error }) {
      if (stopped) return;
      done++;
      if (error) errors++;
      const seconds = (performance.now() - started) / 1_000;
      const rate = seconds > 0 ? ((done - resumed) / seconds).toFixed(1) : '0.0';
      bar.update(done, { errors, rate });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
