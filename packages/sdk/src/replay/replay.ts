import { getDefaultClient, type WeftClient } from '../client/index.js';
import { ClientClosedError, InvalidOptionsError, NotInitializedError } from '../errors/index.js';
import { loadRecordedTrace } from './recorded-trace.js';
import { recordedValuesOf } from './recorded-values.js';
import type { Divergence } from './replay-errors.js';
import { runInSession } from './replay-scope.js';
import { type ForkPlan, type ReplayMode, ReplaySession, servableCalls } from './replay-session.js';

// biome-ignore lint/suspicious/noExplicitAny: the entry op is called with the recorded arguments, whatever its signature.
type EntryOp = (...args: any[]) => unknown;

/** Options of {@link replay}. */
export interface ReplayOptions {
  /**
   * `strict` (the default): a call the record does not have (other op, other
   * inputs, one call too many) throws a `ReplayDivergenceError` naming the
   * op, its step and the first differing input. `live-after-divergence`:
   * from the first such call on, everything runs live.
   */
  mode?: ReplayMode;
  /** Op names (plain, as recorded: `search`, `openai.chat.completions.create`) that run live even where the record has them. */
  live?: readonly string[];
  /** The client to trace the replay with and read the record from. @default the default client */
  client?: WeftClient;
}

/** Options of {@link fork}: the step, and the edited output or arguments there. */
export type ForkOptions = ReplayOptions & {
  /** The step to fork at: a call id of the recorded trace, or a step path (`agent/step[12]/llm`). */
  at: string;
} & (
    | {
        /** Served as the fork step's output (its function does not run). */
        output: unknown;
        args?: never;
      }
    | {
        /** Edits the fork step's arguments (given the ones the replay called it with); it then runs live. */
        args: (args: unknown[]) => unknown[];
        output?: never;
      }
  );

/** What a replay or fork did. */
export interface ReplayResult<T> {
  /** The new trace (its root call id). */
  traceId: string;
  /** The recorded trace it replayed. */
  replayOf: string;
  /** What the entry op returned (`undefined` when it threw). */
  output: T | undefined;
  /** What the entry op threw, when it did (a strict replay's `ReplayDivergenceError` unless the app caught it). */
  error: unknown;
  failed: boolean;
  /** Calls served from the record (a fork's edited output counts). */
  served: number;
  /** Calls whose function ran (the entry op not counted): ops with recorded children run again to reach them, ops run live by `live`, and every call after a divergence (in `live-after-divergence`) or a fork. */
  live: number;
  /** The first call the record did not have, if any. */
  divergence: Divergence | undefined;
  /** For a fork: the fork step's call id in the new trace, once reached (`undefined` if the run never got there). */
  forkedAt: string | undefined;
}

function clientOf(options: ReplayOptions | undefined, what: string): WeftClient {
  const client = options?.client ?? getDefaultClient();
  if (client === undefined) throw new NotInitializedError(what);
  if (client.tracer === undefined) throw new ClientClosedError(what);
  return client;
}

function parseMode(mode: unknown): ReplayMode {
  if (mode === undefined) return 'strict';
  if (mode === 'strict' || mode === 'live-after-divergence') return mode;
  throw new InvalidOptionsError(
    'mode',
    `replay: mode must be 'strict' or 'live-after-divergence', got ${JSON.stringify(mode)}.`,
  );
}

async function run<F extends EntryOp>(
  traceId: string,
  entry: F,
  options: ReplayOptions | undefined,
  fork: ((trace: import('./recorded-trace.js').RecordedTrace) => ForkPlan) | undefined,
  what: string,
): Promise<ReplayResult<Awaited<ReturnType<F>>>> {
  if (typeof entry !== 'function') {
    throw new InvalidOptionsError(
      'entry',
      `${what}: the entry must be the app's entry op (a weft.op function), got ${typeof entry}.`,
    );
  }
  const client = clientOf(options, what);
  const mode = parseMode(options?.mode);
  const live = new Set(options?.live ?? []);
  const trace = await loadRecordedTrace(client, traceId);
  const plan = { trace, mode, live, fork: fork?.(trace) };
  // Values are read before the entry runs: an op is served synchronously (a sync op returns its value).
  await trace.load(recordedValuesOf(client), servableCalls(plan));
  const session = new ReplaySession(plan);
  let output: Awaited<ReturnType<F>> | undefined;
  let error: unknown;
  let failed = false;
  try {
    output = (await runInSession(client.tracer as NonNullable<WeftClient['tracer']>, session, () =>
      entry(),
    )) as Awaited<ReturnType<F>>;
  } catch (thrown) {
    error = thrown;
    failed = true;
  }
  if (session.rootId === undefined) {
    throw new InvalidOptionsError(
      'entry',
      `${what}: the entry function started no traced call: pass the app's entry op (wrapped with weft.op) of this client.`,
    );
  }
  return {
    traceId: session.rootId,
    replayOf: traceId,
    output,
    error,
    failed,
    served: session.served,
    live: session.live,
    divergence: session.divergence,
    forkedAt: session.forkedAt,
  };
}

/**
 * Re-runs a recorded trace: calls `entry` (the app's entry op) with the
 * recorded root's arguments, and serves the traced calls inside — model
 * calls through the integrations and the app's own ops — from the record:
 * a call whose op and inputs match a recorded call at the same place in the
 * tree returns the recorded output (or throws the recorded error) without
 * running, when the recorded call had no children; one that had runs again,
 * so its children are matched in turn. The replay is traced as a new trace whose root has the attribute
 * `weft.replay.of`; served calls have `weft.replay.served` (the recorded
 * call id). See docs/replay.md.
 *
 * @example
 * const result = await replay(failedTraceId, agent);              // strict: 0 model requests
 * const withTools = await replay(traceId, agent, { live: ['search'] });
 * @throws {ReplayNotFoundError} when the server has no such trace
 */
export function replay<F extends EntryOp>(
  traceId: string,
  entry: F,
  options?: ReplayOptions,
): Promise<ReplayResult<Awaited<ReturnType<F>>>> {
  return run(traceId, entry, options, undefined, 'replay');
}

/**
 * Replays a recorded trace up to a step (a call id or a step path such as
 * `agent/step[12]/llm`), serves an edited output there (or runs it live with
 * edited arguments), then continues live. The fork's root has the
 * attributes `weft.replay.of` (the original trace), `weft.fork.at` and
 * `weft.fork.path` (the recorded step); the fork step's call has
 * `weft.fork.edited`.
 *
 * @example
 * await fork(traceId, agent, { at: 'agent/step[12]/search', output: { hits: [] } });
 * @throws {ReplayNotFoundError} when the server has no such trace, or the trace no such step
 */
export function fork<F extends EntryOp>(
  traceId: string,
  entry: F,
  options: ForkOptions,
): Promise<ReplayResult<Awaited<ReturnType<F>>>> {
  const hasOutput = options !== undefined && Object.hasOwn(options, 'output');
  const args = options?.args;
  if (hasOutput === (args !== undefined) || (args !== undefined && typeof args !== 'function')) {
    throw new InvalidOptionsError(
      'output',
      'fork: give exactly one of output (served at the step) or args (a function editing its arguments).',
    );
  }
  if (typeof options.at !== 'string' || options.at.length === 0) {
    throw new InvalidOptionsError(
      'at',
      `fork: at must be a call id or a step path such as 'agent/step[12]/llm', got ${JSON.stringify(options.at)}.`,
    );
  }
  return run(
    traceId,
    entry,
    options,
    (trace) => ({
      node: trace.step(options.at),
      edit: args === undefined ? { output: options.output } : { args },
    }),
    'fork',
  );
}
