import { type Call, plainOpName, type TraceNode, valueDifferences } from '@weft/protocol';
import type { CallRecord, OpSpec } from '../calls/index.js';
import type { CallInterceptor, Interception } from '../op/index.js';
import { argsOfInputs, liveInputs, setCallInputs } from './call-inputs.js';
import { NOT_LOADED, type RecordedTrace } from './recorded-trace.js';
import { type Divergence, RecordedError, ReplayDivergenceError } from './replay-errors.js';
import { REPLAY_ATTRIBUTES } from './replay-attributes.js';

/** How a replay treats the first call the record does not have. */
export type ReplayMode = 'strict' | 'live-after-divergence';

/** Where a fork leaves the record, and with what. */
export interface ForkPlan {
  readonly node: TraceNode<Call>;
  /** The output served for the fork step, or arguments it runs live with. */
  readonly edit: { readonly output: unknown } | { readonly args: (args: unknown[]) => unknown[] };
}

export interface SessionPlan {
  readonly trace: RecordedTrace;
  readonly mode: ReplayMode;
  /** Plain op names that run live even when the record has them. */
  readonly live: ReadonlySet<string>;
  readonly fork: ForkPlan | undefined;
}

/**
 * The recorded calls a replay may serve, whose outputs it reads: leaves of
 * the record (a call with children runs again), except ops run live and,
 * for a fork, the fork step and what the record started after it (from
 * there on everything runs live).
 */
export function servableCalls(plan: Omit<SessionPlan, 'mode'>): TraceNode<Call>[] {
  const { trace, live, fork } = plan;
  const forkStart = fork?.node.call.startedAt;
  return trace.tree.nodes.filter(
    (node) =>
      node.children.length === 0 &&
      node !== trace.root &&
      !live.has(plainOpName(node.call.opName)) &&
      (fork === undefined || (node !== fork.node && node.call.startedAt <= (forkStart as number))),
  );
}

/** A recorded call's result, as its served call gives it (`undefined` when its output was not read). */
function servedResult(trace: RecordedTrace, node: TraceNode<Call>): Interception | undefined {
  const { call } = node;
  if (call.exception !== null) {
    return { kind: 'serve', output: undefined, error: new RecordedError(call.exception), failed: true };
  }
  const output = trace.outputOf(node);
  if (output === NOT_LOADED) return undefined;
  // A copy: the app may change what it is given (push onto a returned array).
  return { kind: 'serve', output: structuredClone(output), error: undefined, failed: false };
}

/**
 * One replay in progress: matches each call of the replay's trace to a
 * recorded call under the recorded counterpart of its parent, by op and
 * inputs digest (the first unmatched one: concurrent siblings are matched
 * by what they ask, not by the order they finish), and decides whether it
 * is served (a recorded leaf: a model call, a tool), runs again (a recorded
 * call with children, an op the options run live), or is where the replay
 * diverged or forks.
 */
export class ReplaySession implements CallInterceptor {
  readonly #plan: SessionPlan;
  /** Live call id → its recorded counterpart. */
  readonly #matched = new Map<string, TraceNode<Call>>();
  readonly #consumed = new Set<TraceNode<Call>>();
  /** The replay's root call id (its trace id), once the entry op started. */
  rootId: string | undefined;
  served = 0;
  live = 0;
  divergence: Divergence | undefined;
  /** The fork step's call id in the new trace, once reached: everything that starts after it runs live. */
  forkedAt: string | undefined;

  constructor(plan: SessionPlan) {
    this.#plan = plan;
  }

  intercept(call: CallRecord, spec: OpSpec, args: readonly unknown[]): Interception | undefined {
    if (this.rootId === undefined) return this.#startRoot(call, spec);
    if (call.traceId !== this.rootId) return undefined;
    if (this.forkedAt !== undefined || (this.divergence !== undefined && this.#plan.mode !== 'strict')) {
      this.live++;
      return undefined;
    }
    const parent = call.parentId === null ? undefined : this.#matched.get(call.parentId);
    if (parent === undefined) {
      // Under a call the record does not have (or that ran with other arguments).
      this.live++;
      return undefined;
    }
    const name = plainOpName(call.opName);
    const candidates = parent.children.filter(
      (child) => !this.#consumed.has(child) && plainOpName(child.call.opName) === name,
    );
    const { safe, digest } = liveInputs(call);
    const match = candidates.find((child) => this.#plan.trace.inputsDigest(child) === digest);
    if (match === undefined) return this.#diverged(call, parent, name, candidates[0], safe);
    this.#consumed.add(match);
    this.#matched.set(call.id, match);
    const fork = this.#plan.fork;
    if (fork !== undefined && fork.node === match) return this.#fork(call, spec, args, fork);
    // An op with recorded children runs again, so its children are matched
    // in turn (the app's own code between them runs; what it asked of models
    // and tools is served): only leaves of the record are served.
    // A call the record started after the fork step, reached first here, has no output read: it runs live.
    const served =
      match.children.length > 0 || this.#plan.live.has(name)
        ? undefined
        : servedResult(this.#plan.trace, match);
    if (served === undefined) {
      this.live++;
      return undefined;
    }
    this.served++;
    call.attributes = { ...call.attributes, [REPLAY_ATTRIBUTES.served]: match.call.id };
    return served;
  }

  /** The entry op's call: it runs with the recorded root's arguments (or the fork's, when the fork is at the root). */
  #startRoot(call: CallRecord, spec: OpSpec): Interception {
    const { trace, fork } = this.#plan;
    this.rootId = call.id;
    this.#matched.set(call.id, trace.root);
    this.#consumed.add(trace.root);
    call.attributes = { ...call.attributes, [REPLAY_ATTRIBUTES.replayOf]: trace.traceId };
    if (fork !== undefined) {
      call.attributes[REPLAY_ATTRIBUTES.forkAt] = fork.node.call.id;
      call.attributes[REPLAY_ATTRIBUTES.forkPath] = fork.node.path;
    }
    const args = argsOfInputs(spec.params, trace.inputsOf(trace.root));
    if (fork !== undefined && fork.node === trace.root) return this.#fork(call, spec, args, fork);
    setCallInputs(call, spec, args);
    return { kind: 'run', args };
  }

  #fork(call: CallRecord, spec: OpSpec, args: readonly unknown[], fork: ForkPlan): Interception {
    this.forkedAt = call.id;
    const { edit } = fork;
    const edited = 'output' in edit ? 'output' : 'args';
    call.attributes = { ...call.attributes, [REPLAY_ATTRIBUTES.forkEdited]: edited };
    if ('output' in edit) {
      this.served++;
      return { kind: 'serve', output: edit.output, error: undefined, failed: false };
    }
    const forked = edit.args([...args]);
    setCallInputs(call, spec, forked);
    this.live++;
    return { kind: 'run', args: forked };
  }

  #diverged(
    call: CallRecord,
    parent: TraceNode<Call>,
    name: string,
    expected: TraceNode<Call> | undefined,
    actual: unknown,
  ): Interception | undefined {
    const sameOp = parent.children.filter((child) => plainOpName(child.call.opName) === name).length;
    const unmatched = parent.children.filter(
      (child) => !this.#consumed.has(child) && plainOpName(child.call.opName) === name,
    ).length;
    const first =
      expected === undefined
        ? undefined
        : valueDifferences(this.#plan.trace.inputsOf(expected), actual, 1)[0];
    const divergence: Divergence = {
      opName: name,
      path: expected?.path ?? `${parent.path}/${name}[${sameOp - unmatched}]`,
      callId: call.id,
      expectedCallId: expected?.call.id,
      input: first?.path,
      expected: first?.left,
      actual: first?.right,
    };
    this.divergence ??= divergence;
    call.attributes = { ...call.attributes, [REPLAY_ATTRIBUTES.diverged]: divergence.path };
    if (this.#plan.mode === 'strict') {
      return { kind: 'serve', output: undefined, error: new ReplayDivergenceError(divergence), failed: true };
    }
    this.live++;
    return undefined;
  }
}
