/** A piece of scheduled work: given the scheduler's clock, does what is due. */
export interface ScheduledTask {
  name: string;
  run(now: number): Promise<void>;
}

export interface MonitorSchedulerOptions {
  tickMs: number;
  now: () => number;
  tasks: readonly ScheduledTask[];
  /** Told a task's failure; the other tasks and later ticks go on. */
  report(task: string, error: unknown): void;
}

/**
 * Runs monitoring's scheduled work (alert evaluation, webhook deliveries,
 * server-side evaluators) every `tickMs`, one tick at a time: a slow tick
 * delays the next, never overlaps it. The timer is unref'd, so it never
 * keeps a process alive; `stop()` waits for the tick in progress.
 */
export class MonitorScheduler {
  readonly #o: MonitorSchedulerOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;

  constructor(options: MonitorSchedulerOptions) {
    this.#o = options;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops ticking and resolves once the tick in progress (if any) has finished. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#tick().finally(() => {
        this.#running = undefined;
        this.#schedule(this.#o.tickMs);
      });
    }, delayMs);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    for (const task of this.#o.tasks) {
      if (this.#stopped) return;
      try {
        await task.run(this.#o.now());
      } catch (error) {
        this.#o.report(task.name, error);
      }
    }
  }
}
