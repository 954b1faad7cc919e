import { type CallSummary, type ModelUsage, type PriceOverrides, priceUsage, totalCostUsd } from '@weft/protocol';
import { callContext, type ContextFrame } from '../context/call-context.js';
import type { Warnings } from '../diagnostics/warnings.js';
import { isStreamLike, traceStream } from '../op/traced-stream.js';
import type { RecordKind } from '../pipeline/call-item.js';
import type { InFlight } from '../pipeline/in-flight.js';
import { materialize } from '../values/snapshot-tape.js';
import { snapshot, type SnapshotLimits, snapshotTape } from '../values/index.js';
import { newCallId } from './call-id.js';
import type { CallRecord } from './call-record.js';
import { namedInputs } from './input-names.js';
import type { FinishedCall, OpSpec } from './op-spec.js';
import { addUsage, usageOf } from './usage.js';

export interface TracerOptions {
  /** Identity of the owning client: a running call of another client is not a parent. */
  owner: object;
  inFlight: InFlight;
  submit: (call: CallRecord, kind: RecordKind) => void;
  warnings: Warnings;
  snapshotLimits: () => SnapshotLimits;
  /** `weft.init({ prices })`: added to or overriding the built-in price table. */
  prices: PriceOverrides | undefined;
}

/**
 * The caller's half of tracing: `startCall` and `finishCall`, constant work
 * plus the structural snapshot. Nothing here throws into user code except
 * the user's own hooks; nothing here awaits.
 */
export class Tracer {
  readonly #o: TracerOptions;
  /** Monomorphic cache of `Class.method` names for decorated methods. */
  #lastSpec: OpSpec | undefined;
  #lastCtor: unknown;
  #lastName = '';

  constructor(options: TracerOptions) {
    this.#o = options;
  }

  /** Runs `fn` as a traced call and returns exactly what it returns (or throws what it throws). */
  run(spec: OpSpec, fn: (...args: unknown[]) => unknown, thisArg: unknown, args: unknown[]): unknown {
    const frame = callContext.getStore();
    const call = this.#start(spec, thisArg, args, frame);
    if (call === undefined) return Reflect.apply(fn, thisArg, args);
    const inner: ContextFrame = { call, attributes: frame?.attributes, sessionId: frame?.sessionId };
    let result: unknown;
    try {
      result = callContext.run(inner, Reflect.apply, fn, thisArg, args);
    } catch (error) {
      this.#finish(spec, call, undefined, error, true, undefined);
      throw error;
    }
    let then: unknown;
    try {
      then = typeof result === 'object' || typeof result === 'function' ? (result as { then?: unknown } | null)?.then : undefined;
    } catch {
      then = undefined; // A hostile value (throwing `then` getter) is returned as a plain value.
    }
    if (typeof then === 'function') {
      const onValue = (value: unknown) => {
        if (isStreamLike(value)) return traceStream(value, inner, (output, usage, error, failed) => this.#finish(spec, call, output, error, failed, usage));
        this.#finish(spec, call, value, undefined, false, undefined);
        return value;
      };
      const onError = (error: unknown) => {
        this.#finish(spec, call, undefined, error, true, undefined);
        throw error;
      };
      // A native promise: one reaction, no extra turn. Another thenable is adopted first.
      return result instanceof Promise ? result.then(onValue, onError) : Promise.resolve(result).then(onValue, onError);
    }
    if (isStreamLike(result)) {
      return traceStream(result, inner, (output, usage, error, failed) => this.#finish(spec, call, output, error, failed, usage));
    }
    this.#finish(spec, call, result, undefined, false, undefined);
    return result;
  }

  /** startCall: ids, parent from the context, timestamps, snapshot of the inputs. `undefined` when tracing itself failed. */
  #start(spec: OpSpec, thisArg: unknown, args: unknown[], frame: ContextFrame | undefined): CallRecord | undefined {
    const { options } = spec;
    let inputs: Record<string, unknown>;
    try {
      inputs = namedInputs(spec.params, args);
    } catch (error) {
      this.#o.warnings.report('start', 'reading the arguments of a call failed; the call is not traced', error);
      return undefined;
    }
    // User hooks: their errors are the user's.
    if (options.postprocessInputs) inputs = options.postprocessInputs(inputs);
    const displayName = typeof options.displayName === 'function' ? options.displayName(inputs) : options.displayName;
    try {
      const parent = frame?.call !== undefined && frame.call.owner === this.#o.owner ? frame.call : undefined;
      const id = newCallId();
      const perf = performance.now();
      const limits = this.#o.snapshotLimits();
      const attributes =
        frame?.attributes === undefined && options.attributes === undefined
          ? undefined
          : (snapshot({ ...frame?.attributes, ...options.attributes }, limits) as Record<string, unknown>);
      const call: CallRecord = {
        id,
        traceId: parent?.traceId ?? id,
        parentId: parent?.id ?? null,
        parent,
        owner: this.#o.owner,
        opName: spec.name ?? this.#methodName(spec, thisArg),
        displayName: typeof displayName === 'string' ? displayName : undefined,
        startedAt: performance.timeOrigin + perf,
        startedAtPerf: perf,
        inputs: snapshotTape(inputs, limits),
        attributes,
        sessionId: frame?.sessionId,
        endedAt: undefined,
        output: undefined,
        error: undefined,
        failed: false,
        summary: undefined,
        childUsage: undefined,
        childCounts: undefined,
        startSubmitted: false,
      };
      this.#o.inFlight.add(call);
      return call;
    } catch (error) {
      this.#o.warnings.report('start', 'starting a call failed; the call is not traced', error);
      return undefined;
    }
  }

  /**
   * finishCall: output snapshot and summary are set before it returns; the
   * walk, refs, encoding and I/O happen later in the pool.
   */
  #finish(
    spec: OpSpec,
    call: CallRecord,
    output: unknown,
    error: unknown,
    failed: boolean,
    streamUsage: Record<string, ModelUsage> | undefined,
  ): void {
    const { options } = spec;
    let recorded = output;
    if (!failed && options.postprocessOutput) {
      // User hook: its error is the user's. The call is still ended (as that
      // error) so it never lingers in the in-flight registry.
      try {
        recorded = options.postprocessOutput(output);
      } catch (hookError) {
        this.#finish({ ...spec, options: {} }, call, undefined, hookError, true, undefined);
        throw hookError;
      }
    }
    try {
      const perf = performance.now();
      call.endedAt = performance.timeOrigin + perf;
      call.failed = failed;
      call.error = error;
      // A failed stream still records what it streamed; a plain throw has no output.
      call.output = recorded === undefined ? undefined : snapshotTape(recorded, this.#o.snapshotLimits());
      // The call's own usage is priced before its children's (already priced) roll into it.
      const usage = addUsage(priceUsage(streamUsage ?? this.#ownUsage(output), this.#o.prices), call.childUsage);
      const status = failed ? 'error' : 'success';
      const summary: CallSummary = { latencyMs: Math.max(0, perf - call.startedAtPerf), status };
      if (usage !== undefined) {
        summary.usage = usage;
        const costUsd = totalCostUsd(usage);
        if (costUsd !== undefined) summary.costUsd = costUsd;
      }
      if (call.childCounts !== undefined) summary.childCounts = call.childCounts;
      call.summary = summary;
      const parent = call.parent;
      if (parent !== undefined && parent.endedAt === undefined) {
        parent.childUsage = addUsage(parent.childUsage, usage);
        if (parent.childCounts === undefined) parent.childCounts = { success: 0, error: 0 };
        parent.childCounts[status]++;
      }
      call.parent = undefined;
      call.childUsage = undefined;
      this.#o.inFlight.delete(call);
      this.#o.submit(call, call.startSubmitted ? 'end' : 'complete');
    } catch (thrown) {
      this.#o.warnings.report('finish', `finishing call ${call.opName} failed; it is not recorded`, thrown, call.id);
      return;
    }
    if (options.onFinish) options.onFinish(finishedView(call));
  }

  /**
   * Usage carried by this call's own output, counted once: an op that returns
   * its child's LLM response as is must not count that usage again (the
   * child's usage already rolled up into it).
   */
  #ownUsage(output: unknown): Record<string, ModelUsage> | undefined {
    const usage = usageOf(output);
    if (usage === undefined) return undefined;
    if (countedOutputs.has(output as object)) return undefined;
    countedOutputs.add(output as object);
    return usage;
  }

  #methodName(spec: OpSpec, thisArg: unknown): string {
    const method = spec.methodName ?? 'anonymous';
    let ctor: unknown;
    try {
      ctor = typeof thisArg === 'function' ? thisArg : (thisArg as { constructor?: unknown } | null | undefined)?.constructor;
    } catch {
      return method;
    }
    if (ctor !== this.#lastCtor || spec !== this.#lastSpec) {
      this.#lastCtor = ctor;
      this.#lastSpec = spec;
      const className = typeof ctor === 'function' && typeof ctor.name === 'string' && ctor.name ? ctor.name : undefined;
      this.#lastName = className ? `${className}.${method}` : method;
    }
    return this.#lastName;
  }
}

/** Outputs whose usage was already counted by the call that produced them. */
const countedOutputs = new WeakSet<object>();

function finishedView(call: CallRecord): FinishedCall {
  return {
    id: call.id,
    traceId: call.traceId,
    parentId: call.parentId,
    opName: call.opName,
    startedAt: call.startedAt,
    endedAt: call.endedAt ?? call.startedAt,
    output: materialize(call.output),
    error: call.error,
    summary: call.summary ?? {},
  };
}
