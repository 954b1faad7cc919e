import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** Event-loop lag percentiles in milliseconds. */
export interface LoopLag {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Samples in the window (about 10 per second). */
  samples: number;
}

const RESOLUTION_MS = 100;

/**
 * Event-loop lag sampled at 10 Hz (`monitorEventLoopDelay` with a 100 ms
 * resolution). The histogram is cumulative from `start()` until a read with
 * `reset: true`, which starts a new window.
 */
export class LoopLagMonitor {
  #histogram: IntervalHistogram | undefined;

  start(): void {
    if (this.#histogram) return;
    this.#histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.#histogram.enable();
  }

  read(reset = false): LoopLag {
    const h = this.#histogram;
    if (!h || h.count === 0) return { p50: 0, p90: 0, p99: 0, max: 0, samples: 0 };
    // The histogram records the time between its 100 ms timer's runs; the lag is what exceeds the 100 ms.
    const ms = (ns: number) => Math.max(0, Math.round((ns - RESOLUTION_MS * 1e6) / 1e4) / 100);
    const lag = {
      p50: ms(h.percentile(50)),
      p90: ms(h.percentile(90)),
      p99: ms(h.percentile(99)),
      max: ms(h.max),
      samples: h.count,
    };
    if (reset) h.reset();
    return lag;
  }

  stop(): void {
    this.#histogram?.disable();
    this.#histogram = undefined;
  }
}
