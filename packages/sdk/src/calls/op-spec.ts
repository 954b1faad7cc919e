import type { CallSummary } from '@weft/protocol';
import type { StreamAccumulator } from './stream-accumulator.js';
import type { ParamName } from './input-names.js';

/** Ends a call whose function returned a promise: see {@link OpOptions.chainPromise}. */
export interface PromiseSettlers {
  /** The promise fulfilled with `value`: ends the call (or starts tracing the stream) and returns what the caller receives. */
  value(value: unknown): unknown;
  /** The promise rejected: records `error` and ends the call. Does not throw. */
  error(error: unknown): void;
}

/** A call as `onFinish` sees it. `output` is the recorded (snapshotted, post-processed) output. */
export interface FinishedCall {
  readonly id: string;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly opName: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly output: unknown;
  /** What the function threw, when it threw (the same object). */
  readonly error: unknown;
  readonly summary: CallSummary;
}

/** Options of `weft.op`. Hooks run on the caller: errors they throw are the caller's. */
export interface OpOptions {
  /** Op name recorded on each call. @default the function's name (`Class.method` for decorated methods) */
  name?: string;
  /** Transforms the inputs record before it is recorded (e.g. drop a client object). Does not change what the function receives. */
  postprocessInputs?: (inputs: Record<string, unknown>) => Record<string, unknown>;
  /** Transforms the output before it is recorded. Does not change what the caller receives. */
  postprocessOutput?: (output: unknown) => unknown;
  /** Called on the caller's turn when a call ends, after its summary is set. */
  onFinish?: (call: FinishedCall) => void;
  /** Display name of each call: a string, or a function of its inputs record. */
  displayName?: string | ((inputs: Record<string, unknown>) => string);
  /** Attributes recorded on each call (merged over `withAttributes` ones). */
  attributes?: Record<string, unknown>;
  /**
   * Send each call's start record as soon as the call starts, instead of
   * once it has run for `startDelayMs`: for long calls that must be on the
   * server even if the process dies early (an evaluation run, which a later
   * resume closes by its id).
   * @default false
   */
  sendStartAtOnce?: boolean;
  /**
   * For a streamed result: a new accumulator per call (given the call's
   * arguments), fed each chunk on the caller's turn instead of keeping the
   * chunk list; its `output()` and `usage()` are recorded when the stream
   * ends. Client integrations use it to record what a stream adds up to.
   * @default keeps a snapshot of each chunk (strings are joined)
   */
  streamAccumulator?: (args: readonly unknown[]) => StreamAccumulator;
  /**
   * For a function that returns its own promise type whose methods callers
   * use (an SDK's `APIPromise` with `.withResponse()`): builds the promise
   * the caller receives from the one the function returned, calling
   * `settle.value` with the fulfilled value (its result is what the caller
   * gets) and `settle.error` on rejection. Each settler acts once.
   * @default `promise.then(settle.value, (e) => { settle.error(e); throw e; })`
   */
  chainPromise?: (promise: PromiseLike<unknown>, settle: PromiseSettlers) => unknown;
}

/** What `op` computes once at wrap time. */
export interface OpSpec {
  /** Fixed name, or `undefined` to derive `Class.method` from `this` per call. */
  readonly name: string | undefined;
  /** For decorated methods: the method name. */
  readonly methodName: string | undefined;
  readonly params: readonly ParamName[];
  readonly options: OpOptions;
}
