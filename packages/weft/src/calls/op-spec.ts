import type { CallSummary } from '@weft/protocol';
import type { ParamName } from './input-names.js';

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
