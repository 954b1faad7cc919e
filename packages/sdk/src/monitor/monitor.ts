import { createHash } from 'node:crypto';
import { debuglog } from 'node:util';
import {
  type Call,
  type CallFilter,
  type EvaluatorResult,
  evaluatorPullResponse,
  evaluatorStatus,
  type FeedbackValue,
  routes,
  type ScoreValue,
} from '@weft/protocol';
import { z } from 'zod';
import { getDefaultClient } from '../client/index.js';
import type { WeftClient } from '../client/index.js';
import { InvalidOptionsError, NotInitializedError } from '../errors/index.js';
import { apiOf } from '../read/index.js';
import { type ApiClient, parseOptions } from '../transport/index.js';

const log = debuglog('weft');

/** What a monitor's scorer receives: the call's output, its inputs as the row (as evaluations pass a dataset row), and the call. */
export interface MonitorScorerArgs {
  output: unknown;
  row: Record<string, unknown>;
  call: Call;
}

/** Scores one call, with the signature of an evaluation's scorer (and the call besides). */
export type MonitorScorer = (args: MonitorScorerArgs) => ScoreValue | Promise<ScoreValue>;

/** Options of {@link monitor}. */
export interface MonitorOptions {
  /** The evaluator's name (its rule on the server; results are feedback with `source: 'evaluator:<name>'`). */
  name: string;
  scorer: MonitorScorer;
  /** Which calls: the calls query's filters (full-text search aside). @default every call */
  filter?: Omit<CallFilter, 'text'>;
  /** Share of traces scored, decided by trace id. @default 1 */
  sampleRate?: number;
  /** The feedback name of a number or boolean score. @default the scorer function's name, else `name` */
  scoreName?: string;
  /** Calls scored at once. @default 4 */
  concurrency?: number;
  /** Calls asked for per pull. @default 50 */
  batchSize?: number;
  /** Wait between pulls when nothing is waiting, and after a failed request. @default 2_000 */
  pollIntervalMs?: number;
  /** The client to use. @default the default client (`weft.init`) */
  client?: WeftClient;
}

const optionsSchema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1–128 letters, digits, ".", "_" or "-"'),
  scorer: z.custom<MonitorScorer>((value) => typeof value === 'function', 'must be a function'),
  filter: z.record(z.string(), z.unknown()).optional(),
  sampleRate: z.number().min(0).max(1).default(1),
  scoreName: z.string().min(1).max(256).optional(),
  concurrency: z.number().int().min(1).max(64).default(4),
  batchSize: z.number().int().min(1).max(500).default(50),
  pollIntervalMs: z.number().int().positive().default(2_000),
  client: z.unknown().optional(),
});

/**
 * A running online evaluator (see {@link monitor}): `stop()` finishes the
 * page in hand (its results are stored) and stops; `scored` and `failed`
 * count this process's results.
 */
export interface Monitor {
  readonly name: string;
  readonly scored: number;
  readonly failed: number;
  /** Resolves once the rule is registered on the server (rejects if it cannot be). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Scores production calls in this process as they complete: registers the
 * rule `name` (filter, sample rate, and the scorer's code digest as its
 * version) on the server, then pulls the calls it selects with a cursor the
 * server keeps, scores them, and writes the results, which moves the cursor.
 * At least once: a process killed mid-page scores that page again when it
 * restarts, and the results' ids make the second write a no-op — no call
 * is skipped, none counted twice. A scorer that throws is a recorded error
 * for that call, never the end of the worker.
 */
export function monitor(options: MonitorOptions): Monitor {
  const parsed = parseOptions('monitor', optionsSchema, options);
  const client = options.client ?? getDefaultClient();
  if (client === undefined) throw new NotInitializedError('monitor');
  const api = apiOf(client);
  if (api === undefined) throw new InvalidOptionsError('client', 'monitor: `client` is not a Weft client.');
  const worker = new MonitorWorker(client.project, api, {
    ...parsed,
    scorer: options.scorer,
    filter: options.filter,
  });
  return worker;
}

type WorkerOptions = z.output<typeof optionsSchema> & {
  scorer: MonitorScorer;
  filter?: Omit<CallFilter, 'text'>;
};

class MonitorWorker implements Monitor {
  readonly name: string;
  readonly ready: Promise<void>;
  readonly #project: string;
  readonly #api: ApiClient;
  readonly #o: WorkerOptions;
  readonly #scoreName: string;
  readonly #loop: Promise<void>;
  #scored = 0;
  #failed = 0;
  #stopping = false;
  #wake: (() => void) | undefined;

  constructor(project: string, api: ApiClient, options: WorkerOptions) {
    this.name = options.name;
    this.#project = project;
    this.#api = api;
    this.#o = options;
    this.#scoreName = options.scoreName ?? (options.scorer.name || options.name);
    this.ready = this.#register();
    // The loop starts once registered; a registration failure is the caller's to see on `ready`.
    this.#loop = this.ready.then(
      () => this.#run(),
      () => undefined,
    );
  }

  get scored(): number {
    return this.#scored;
  }

  get failed(): number {
    return this.#failed;
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
  }

  async #register(): Promise<void> {
    const digest = createHash('sha256').update(this.#o.scorer.toString()).digest('hex').slice(0, 16);
    await this.#api.postJson(
      routes.evaluatorPut(),
      {
        project: this.#project,
        name: this.name,
        ...(this.#o.filter === undefined ? {} : { filter: this.#o.filter }),
        sampleRate: this.#o.sampleRate,
        scorer: { type: 'code', digest },
      },
      evaluatorStatus,
    );
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      try {
        const page = await this.#api.postJson(
          routes.evaluatorPull(),
          { project: this.#project, name: this.name, limit: this.#o.batchSize },
          evaluatorPullResponse,
        );
        if (page.calls.length > 0 || !page.idle) {
          const results = await this.#score(page.calls);
          await this.#api.postJson(
            routes.evaluatorResults(),
            { project: this.#project, name: this.name, version: page.version, cursor: page.cursor, results },
            z.object({ stored: z.number() }),
          );
          for (const result of results) {
            if (result.error === undefined) this.#scored++;
            else this.#failed++;
          }
          if (page.calls.length > 0) continue;
        }
      } catch (error) {
        log('monitor %s: %s', this.name, (error as Error).message);
      }
      await this.#pause();
    }
  }

  /** Scores calls `concurrency` at a time, in order; a throw or a value that is not a score is that call's error. */
  async #score(calls: readonly Call[]): Promise<EvaluatorResult[]> {
    const results: EvaluatorResult[] = new Array(calls.length);
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < calls.length; i = next++) {
        const call = calls[i] as Call;
        try {
          const value = await this.#o.scorer({ output: call.output, row: call.inputs, call });
          results[i] = { callId: call.id, scores: this.#scores(value) };
        } catch (error) {
          results[i] = {
            callId: call.id,
            error: `${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? String(error)}`,
          };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#o.concurrency, calls.length) }, lane));
    return results;
  }

  /** A score value as feedback: a number or boolean under the score name, an object's entries as `<name>.<key>`. */
  #scores(value: ScoreValue): Record<string, FeedbackValue> {
    if (typeof value === 'number' || typeof value === 'boolean') {
      if (typeof value === 'number' && !Number.isFinite(value))
        throw new TypeError(`the scorer returned ${value}`);
      return { [this.#scoreName]: value };
    }
    if (value === null || typeof value !== 'object')
      throw new TypeError(`the scorer returned ${String(value)}, not a number, boolean or object of them`);
    const scores: Record<string, FeedbackValue> = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'number' && typeof item !== 'boolean')
        throw new TypeError(`score ${key} is not a number or boolean`);
      scores[`${this.#scoreName}.${key}`] = item;
    }
    return scores;
  }

  /** Waits the poll interval, or less when `stop()` is called. */
  #pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve();
      }, this.#o.pollIntervalMs);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }
}
