import type { DeletionCounts } from '@weft/protocol';
import type { Storage } from '../storage/index.js';
import type { DeletionAudit } from './deletion-audit.js';
import { addCounts, NO_COUNTS } from './deletion-counts.js';
import { keptByRules } from './keep-rules.js';
import type { ProjectSettingsStore, RetentionPolicy } from './project-settings.js';
import { yieldToRequests } from './yield-to-requests.js';

const DAY_MS = 86_400_000;

/** Options of {@link RetentionSweeper}. */
export interface RetentionSweeperOptions {
  storage: Storage;
  settings: ProjectSettingsStore;
  audit: DeletionAudit;
  /**
   * Time between passes over every project.
   * @default 10 minutes
   */
  intervalMs?: number;
  /**
   * Calls examined per step of a pass (`LifecycleStorage.expiredTraces`).
   * @default 2,000
   */
  scanCalls?: number;
  /**
   * Traces deleted per step (one bounded write each).
   * @default 100
   */
  deleteTraces?: number;
  /**
   * Values and files put this recently are never collected: the call that
   * refers to them may still be on its way.
   * @default 1 hour
   */
  garbageGraceMs?: number;
  /** Reports a pass that failed (the next pass tries again). */
  onError?: (error: unknown, project: string) => void;
}

/** What one pass over one project did. */
export interface RetentionOutcome extends DeletionCounts {
  project: string;
  /** The cutoff: calls of traces started wholly before it expired (`null`: no retention). */
  expiredBefore: number | null;
  /** Expired traces kept by feedback, datasets, evaluations or keep rules. */
  keptTraces: number;
}

/**
 * Enforces retention in the background: every `intervalMs`, for each
 * project with a retention, one pass from the project's oldest call to the
 * cutoff (now − retention), in steps: find expired traces, leave out the
 * kept ones, delete the rest (whole traces, `secure: false`), yielding to
 * requests between steps so ingest and reads go on. Then rollup buckets
 * wholly before the cutoff are dropped and unreferenced values and files
 * collected. A pass starts over from the oldest call each time, so a call
 * that arrives late with an old start time, or a trace whose keep rule was
 * removed, is found by the next pass.
 */
export class RetentionSweeper {
  readonly #o: Required<Omit<RetentionSweeperOptions, 'onError'>> & Pick<RetentionSweeperOptions, 'onError'>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #closed = false;

  constructor({
    intervalMs = 10 * 60_000,
    scanCalls = 2_000,
    deleteTraces = 100,
    garbageGraceMs = 60 * 60_000,
    ...rest
  }: RetentionSweeperOptions) {
    this.#o = { intervalMs, scanCalls, deleteTraces, garbageGraceMs, ...rest };
  }

  /**
   * Starts the passes (the first after `delayMs`: by default 30 s, or the
   * interval when shorter, so a server starting under load serves first);
   * timers never keep the process alive.
   */
  start(delayMs = Math.min(30_000, this.#o.intervalMs)): void {
    if (this.#closed || this.#timer !== undefined) return;
    const tick = () => {
      this.#timer = setTimeout(
        () => {
          this.sweepAll()
            .catch(() => {})
            .finally(() => {
              if (!this.#closed) tick();
            });
        },
        this.#timer === undefined ? delayMs : this.#o.intervalMs,
      );
      this.#timer.unref();
    };
    tick();
  }

  /** One pass over every project; a pass already running is joined, not doubled. */
  sweepAll(now = Date.now()): Promise<RetentionOutcome[]> {
    return this.#exclusive(async () => {
      const outcomes: RetentionOutcome[] = [];
      for (const policy of await this.#o.settings.policies()) {
        if (this.#closed) break;
        try {
          outcomes.push(await this.#sweep(policy, now));
        } catch (error) {
          this.#o.onError?.(error, policy.project);
        }
      }
      return outcomes;
    });
  }

  /** One pass over one project, now (what `POST …/retention/run` and tests call). */
  async sweepProject(project: string, now = Date.now()): Promise<RetentionOutcome> {
    const policy = await this.#o.settings.policy(project);
    return this.#exclusive(() => this.#sweep(policy, now));
  }

  /** Stops the timer and waits for a pass in progress to stop at its next step. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#running?.catch(() => {});
  }

  /** Runs `work` after any pass in progress: passes never overlap (two would delete the same traces). */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = (this.#running ?? Promise.resolve()).catch(() => {}).then(work);
    this.#running = run;
    return run;
  }

  async #sweep(policy: RetentionPolicy, now: number): Promise<RetentionOutcome> {
    const { project } = policy;
    if (policy.retentionDays === null) {
      return { project, expiredBefore: null, keptTraces: 0, ...NO_COUNTS };
    }
    const { storage } = this.#o;
    const cutoff = now - policy.retentionDays * DAY_MS;
    let counts = NO_COUNTS;
    let keptTraces = 0;
    let cursor: string | undefined;
    do {
      const page = await storage.lifecycle.expiredTraces(project, cutoff, cursor, this.#o.scanCalls);
      const kept = new Set(await storage.lifecycle.keptTraces(project, page.traceIds));
      const open = page.traceIds.filter((id) => !kept.has(id));
      for (const id of await keptByRules(storage, project, open, policy.keepRules)) kept.add(id);
      keptTraces += kept.size;
      const expired = page.traceIds.filter((id) => !kept.has(id));
      for (let i = 0; i < expired.length; i += this.#o.deleteTraces) {
        const chunk = expired.slice(i, i + this.#o.deleteTraces);
        counts = addCounts(counts, await storage.lifecycle.deleteTraces(project, chunk, { secure: false }));
        await yieldToRequests();
      }
      cursor = page.cursor;
      await yieldToRequests();
    } while (cursor !== undefined && !this.#closed);
    await storage.monitoring.dropRollupsBefore(project, cutoff);
    counts = addCounts(counts, await this.#collectGarbage(project, now - this.#o.garbageGraceMs));
    if (counts.calls + counts.values + counts.files > 0) {
      await this.#o.audit.record({
        at: now,
        project,
        actor: 'retention',
        query: { retentionDays: policy.retentionDays, startedBefore: cutoff },
        counts,
      });
    }
    return { project, expiredBefore: cutoff, keptTraces, ...counts };
  }

  async #collectGarbage(project: string, storedBefore: number): Promise<DeletionCounts> {
    let values = 0;
    let files = 0;
    let cursor: string | undefined;
    do {
      const step = await this.#o.storage.lifecycle.collectGarbage(project, storedBefore, cursor, 1_000);
      values += step.values;
      files += step.files;
      cursor = step.cursor;
      await yieldToRequests();
    } while (cursor !== undefined && !this.#closed);
    return { traces: 0, calls: 0, values, files };
  }
}
