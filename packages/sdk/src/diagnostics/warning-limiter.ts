/** Builds a warning from the counts summed since the last one and how many events they cover. */
export type DescribeWarning = (
  counts: Readonly<Record<string, number>>,
  occurrences: number,
) => { message: string; details: Record<string, unknown> };

interface Window {
  timer: NodeJS.Timeout;
  occurrences: number;
  counts: Record<string, number>;
  describe: DescribeWarning;
}

/**
 * At most one warning per kind per interval. The first event of a quiet kind is
 * reported at once; later ones in the same interval are summed and reported as
 * one summary when the interval ends (or at `flush()`), so a burst of 10,000
 * identical failures becomes two lines with counts, and none is hidden.
 */
export class WarningLimiter {
  readonly #intervalMs: number;
  readonly #emit: (message: string, details: Record<string, unknown>) => void;
  readonly #windows = new Map<string, Window>();

  constructor(intervalMs: number, emit: (message: string, details: Record<string, unknown>) => void) {
    this.#intervalMs = intervalMs;
    this.#emit = emit;
  }

  /** Records one event of `kind` carrying `counts` (summed across a window). */
  report(kind: string, counts: Record<string, number>, describe: DescribeWarning): void {
    const window = this.#windows.get(kind);
    if (window === undefined) {
      this.#send(kind, counts, 1, describe);
      this.#windows.set(kind, { timer: this.#arm(kind), occurrences: 0, counts: {}, describe });
      return;
    }
    window.occurrences++;
    window.describe = describe;
    for (const [name, value] of Object.entries(counts))
      window.counts[name] = (window.counts[name] ?? 0) + value;
  }

  /** Emits every pending summary now and stops the timers (used by `close()`). */
  flush(): void {
    for (const [kind, window] of this.#windows) {
      clearTimeout(window.timer);
      if (window.occurrences > 0) this.#send(kind, window.counts, window.occurrences, window.describe);
    }
    this.#windows.clear();
  }

  #arm(kind: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const window = this.#windows.get(kind);
      if (window === undefined) return;
      if (window.occurrences === 0) {
        this.#windows.delete(kind); // a quiet interval: the next event is reported at once again
        return;
      }
      this.#send(kind, window.counts, window.occurrences, window.describe);
      this.#windows.set(kind, {
        timer: this.#arm(kind),
        occurrences: 0,
        counts: {},
        describe: window.describe,
      });
    }, this.#intervalMs);
    // A pending summary must not keep the process alive.
    timer.unref();
    return timer;
  }

  #send(kind: string, counts: Record<string, number>, occurrences: number, describe: DescribeWarning): void {
    const { message, details } = describe(counts, occurrences);
    try {
      this.#emit(message, { kind, ...details, ...counts, occurrences });
    } catch {
      // A throwing warning handler must not break the write path that reported the warning.
    }
  }
}
