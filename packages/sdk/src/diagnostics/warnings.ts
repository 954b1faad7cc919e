import { channel } from 'node:diagnostics_channel';
import { debuglog } from 'node:util';

const debug = debuglog('weft');

/** diagnostics_channel on which every pipeline problem is published as a {@link PipelineProblem}. */
export const PROBLEM_CHANNEL = 'weft:problem';
const problems = channel(PROBLEM_CHANNEL);

/** One problem inside the pipeline, with enough context to act on it. */
export interface PipelineProblem {
  /** What kind of work failed: `'schedule'`, `'encode'`, `'object-upload'`, `'transport'`, … */
  readonly kind: string;
  readonly message: string;
  readonly error?: unknown;
  readonly callId?: string | undefined;
  readonly project: string;
}

/**
 * The SDK's one warning channel. Every problem goes to `util.debuglog('weft')`
 * (NODE_DEBUG=weft) and to diagnostics_channel `weft:problem`; the process
 * sees one `process.emitWarning` for the first problem of each kind and then a
 * single summary per interval ("and 1,203 more …"), never 10,000 lines.
 * Problems are logged, never thrown into user code and never dropped silently.
 */
export class Warnings {
  readonly #project: string;
  readonly #intervalMs: number;
  /** kind → count of problems not yet summarised. */
  readonly #unreported = new Map<string, { count: number; last: string }>();
  readonly #seen = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #total = 0;

  constructor(project: string, intervalMs: number) {
    this.#project = project;
    this.#intervalMs = intervalMs;
  }

  /** Problems reported since the client was created. */
  get total(): number {
    return this.#total;
  }

  report(kind: string, message: string, error?: unknown, callId?: string): void {
    try {
      this.#total++;
      const problem: PipelineProblem = { kind, message, error, callId, project: this.#project };
      debug('%s%s: %s %o', kind, callId ? ` (call ${callId})` : '', message, error ?? '');
      if (problems.hasSubscribers) problems.publish(problem);
      if (!this.#seen.has(kind)) {
        this.#seen.add(kind);
        this.#emit(
          `${message}${error instanceof Error ? `: ${error.message}` : ''} (further "${kind}" problems are summarised every ${this.#intervalMs} ms; NODE_DEBUG=weft shows each)`,
        );
        return;
      }
      const entry = this.#unreported.get(kind);
      if (entry) {
        entry.count++;
        entry.last = message;
      } else this.#unreported.set(kind, { count: 1, last: message });
      this.#timer ??= setTimeout(() => this.#summarise(), this.#intervalMs).unref();
    } catch {
      // The warning channel itself must never throw into the pipeline.
    }
  }

  /** Emits pending summaries now (used on shutdown). */
  drain(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#summarise();
  }

  #summarise(): void {
    this.#timer = undefined;
    for (const [kind, { count, last }] of this.#unreported) {
      this.#emit(
        `${count.toLocaleString('en-US')} more "${kind}" problem${count > 1 ? 's' : ''} in the last ${this.#intervalMs} ms; latest: ${last}`,
      );
    }
    this.#unreported.clear();
  }

  #emit(message: string): void {
    process.emitWarning(`[weft ${this.#project}] ${message}`, { code: 'WEFT_PIPELINE' });
  }
}

/** Process-wide one-time warnings (e.g. ops called before `init`). */
const once = new Set<string>();
export function warnOnce(code: string, message: string): void {
  if (once.has(code)) return;
  once.add(code);
  process.emitWarning(message, { code });
}
/** Forgets one-time warnings (testing reset). */
export function resetWarnOnce(): void {
  once.clear();
}
