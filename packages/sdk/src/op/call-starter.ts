import type { OtelContext } from '../context/index.js';
import type { ContextFrame } from '../context/index.js';
import { type CallRecord, namedInputs, newCallId, newChildCallId, type OpSpec } from '../calls/index.js';
import type { HeldTrace } from '../sampling/index.js';
import { snapshot, snapshotTape } from '../values/index.js';
import { MethodNames } from './method-names.js';
import { placeCall } from './otel-parent.js';
import type { SpanRollUp } from './span-roll-up.js';
import type { TracerOptions } from './tracer-options.js';

/**
 * The start of a traced call: its record (ids, parent, timestamps, the
 * snapshot of its inputs), registered in flight or with its held trace, and
 * its start record sent when the op asks for it at once.
 */
export class CallStarter {
  readonly #o: TracerOptions;
  readonly #spans: SpanRollUp;
  readonly #methodNames = new MethodNames();

  constructor(options: TracerOptions, spans: SpanRollUp) {
    this.#o = options;
    this.#spans = spans;
  }

  /**
   * startCall: ids, parent from the context, timestamps, snapshot of the inputs. `undefined` when tracing itself failed.
   * `rootId`: the id already drawn for the sampling decision; `held`: the held trace it joins (not sent until its root ends).
   */
  start(
    spec: OpSpec,
    thisArg: unknown,
    args: unknown[],
    frame: ContextFrame | undefined,
    active: OtelContext | undefined,
    rootId?: string,
    held?: HeldTrace,
  ): CallRecord | undefined {
    const { options } = spec;
    let inputs: Record<string, unknown>;
    try {
      inputs = namedInputs(spec.params, args);
    } catch (error) {
      this.#o.warnings.report(
        'start',
        'reading the arguments of a call failed; the call is not traced',
        error,
      );
      return undefined;
    }
    // User hooks: their errors are the user's.
    if (options.postprocessInputs) inputs = options.postprocessInputs(inputs);
    const displayName =
      typeof options.displayName === 'function' ? options.displayName(inputs) : options.displayName;
    try {
      const { parent, traceId, parentId } = placeCall(frame, active, this.#o.owner, this.#spans);
      // A root's id is its trace id (drawn early when sampling decided on it); a child's id starts with its trace id's head (see newChildCallId).
      const id = traceId === undefined ? (rootId ?? newCallId()) : newChildCallId(traceId);
      const perf = performance.now();
      const limits = this.#o.snapshot.limits;
      const attributes =
        frame?.attributes === undefined && options.attributes === undefined
          ? undefined
          : (snapshot({ ...frame?.attributes, ...options.attributes }, limits) as Record<string, unknown>);
      const call: CallRecord = {
        id,
        traceId: traceId ?? id,
        parentId,
        parent,
        owner: this.#o.owner,
        opName: spec.name ?? this.#methodNames.of(spec, thisArg),
        displayName: typeof displayName === 'string' ? displayName : undefined,
        startedAt: performance.timeOrigin + perf,
        startedAtPerf: perf,
        inputs: snapshotTape(inputs, limits, true),
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
      // A held call sends no early start record: its trace may yet be dropped.
      if (held !== undefined) this.#o.sampler?.started(held, call);
      else {
        this.#o.inFlight.add(call);
        if (options.sendStartAtOnce === true) {
          call.startSubmitted = true;
          this.#o.pipeline.submit(call, 'start');
        }
      }
      return call;
    } catch (error) {
      this.#o.warnings.report('start', 'starting a call failed; the call is not traced', error);
      return undefined;
    }
  }
}
