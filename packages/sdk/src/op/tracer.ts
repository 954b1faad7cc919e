import { type ModelUsage, priceUsage } from '@weft/protocol';
import {
  callContext,
  type ContextFrame,
  type OtelContext,
  type OtelContextManager,
  otelContextManager,
  SPAN_KEY,
} from '../context/index.js';
import {
  addUsage,
  type CallRecord,
  ChunkList,
  type FinishedCall,
  newCallId,
  newTraceBits,
  type OpSpec,
  type PromiseSettlers,
  type StreamAccumulator,
} from '../calls/index.js';
import { isStreamLike, type StreamEnd, traceStream } from './traced-stream.js';
import type { HeldTrace, Sampler } from '../sampling/index.js';
import { snapshotOutput } from '../values/index.js';
import type { EndedSpan } from './ended-span.js';
import { rollUpInto } from './roll-up.js';
import { SpanCall } from './span-call.js';
import { SpanRollUp } from './span-roll-up.js';
import { WeftCallSpan } from './weft-call-span.js';
import { finishedSummary, finishedView, ownUsage } from './finished-call.js';
import { CallStarter } from './call-starter.js';
import type { TracerOptions } from './tracer-options.js';
import { type OrphanCall, orphanEnd } from './orphan-end.js';
import { activeOtelContext, runInOtelContext } from './otel-run.js';
import type { CallInterceptor, Interception } from './call-interceptor.js';

/**
 * The caller's half of tracing: `startCall` and `finishCall`, constant work
 * plus the structural snapshot. Nothing here throws into user code except
 * the user's own hooks; nothing here awaits.
 */
export class Tracer {
  readonly #o: TracerOptions;
  readonly #starter: CallStarter;
  /** The frame of a sampled-out trace when no attributes are set: one object, not one per call. */
  readonly #unsampled: ContextFrame;
  /** Spans recorded in-process, as parents of what runs under them. */
  readonly #spans: SpanRollUp;
  /**
   * The replay seam (see `CallInterceptor`): set while a replay runs on this
   * tracer, `undefined` otherwise (one property read per call).
   */
  interceptor: CallInterceptor | undefined = undefined;

  constructor(options: TracerOptions) {
    this.#o = options;
    this.#unsampled = { call: undefined, attributes: undefined, unsampledBy: options.owner };
    this.#spans = new SpanRollUp(options.owner, options.prices);
    this.#starter = new CallStarter(options, this.#spans);
  }

  /** Runs `fn` as a traced call and returns exactly what it returns (or throws what it throws). */
  run(spec: OpSpec, fn: (...args: unknown[]) => unknown, thisArg: unknown, args: unknown[]): unknown {
    const frame = callContext.getStore();
    // One property read when OpenTelemetry is absent (see context/otel-global.ts).
    const otel = otelContextManager();
    const active = otel === undefined ? undefined : activeOtelContext(otel);
    // Sampling is decided here, before any snapshot. With no sampler (rate 1) none of it runs.
    const sampler = this.#o.sampler;
    let rootId: string | undefined;
    let held: HeldTrace | undefined;
    if (sampler !== undefined) {
      if (frame?.unsampledBy === this.#o.owner) {
        sampler.countSampledOut();
        return Reflect.apply(fn, thisArg, args);
      }
      const parent = frame?.call !== undefined && frame.call.owner === this.#o.owner ? frame.call : undefined;
      if (parent === undefined) {
        // A root: the one head decision of its trace, on the random bits that end
        // its trace id (= the root's id); the id string is built only if needed.
        const traceBits = newTraceBits();
        if (!sampler.keepsTrace(traceBits)) {
          held = sampler.hold();
          if (held === undefined) return this.#runUnsampled(sampler, frame, fn, thisArg, args);
        }
        rootId = newCallId(traceBits);
      } else {
        held = sampler.heldOf(parent);
        if (held?.state === 'dropped') return this.#runUnsampled(sampler, frame, fn, thisArg, args);
      }
    }
    const call = this.#starter.start(spec, thisArg, args, frame, active, rootId, held);
    if (call === undefined) return Reflect.apply(fn, thisArg, args);
    const intercepted = this.interceptor?.intercept(call, spec, args);
    if (intercepted !== undefined) {
      if (intercepted.kind === 'serve') return this.#serve(spec, call, fn, intercepted);
      args = intercepted.args;
    }
    // With OpenTelemetry, the call is also the active OTel span while `fn`
    // runs, so spans started there become its children.
    const otelInner = active === undefined ? undefined : active.setValue(SPAN_KEY, new WeftCallSpan(call));
    const inner: ContextFrame = {
      call,
      attributes: frame?.attributes,
      otel: otelInner,
      sessionId: frame?.sessionId,
      remoteParent: frame?.remoteParent,
    };
    let result: unknown;
    try {
      result =
        otelInner === undefined
          ? callContext.run(inner, Reflect.apply, fn, thisArg, args)
          : callContext.run(
              inner,
              runInOtelContext,
              otel as OtelContextManager,
              otelInner,
              fn,
              thisArg,
              args,
            );
    } catch (error) {
      this.#finish(spec, call, undefined, undefined, error, true, undefined);
      throw error;
    }
    let then: unknown;
    try {
      then =
        typeof result === 'object' || typeof result === 'function'
          ? (result as { then?: unknown } | null)?.then
          : undefined;
    } catch {
      then = undefined; // A hostile value (throwing `then` getter) is returned as a plain value.
    }
    if (typeof then === 'function') {
      let settled = false;
      const settle: PromiseSettlers = {
        value: (value) => {
          if (settled) return value;
          settled = true;
          if (isStreamLike(value)) return this.#traceStream(spec, call, inner, args, value);
          this.#finish(spec, call, undefined, value, undefined, false, undefined);
          return value;
        },
        error: (error) => {
          if (settled) return;
          settled = true;
          this.#finish(spec, call, undefined, undefined, error, true, undefined);
        },
      };
      const { chainPromise } = spec.options;
      if (chainPromise !== undefined) return chainPromise(result as PromiseLike<unknown>, settle);
      const onError = (error: unknown) => {
        settle.error(error);
        throw error;
      };
      // A native promise: one reaction, no extra turn. Another thenable is adopted first.
      return result instanceof Promise
        ? result.then(settle.value, onError)
        : Promise.resolve(result).then(settle.value, onError);
    }
    if (isStreamLike(result)) return this.#traceStream(spec, call, inner, args, result);
    this.#finish(spec, call, undefined, result, undefined, false, undefined);
    return result;
  }

  /**
   * Ends a call that another process started and never ended (it was
   * killed): an end record with `error` as its exception, status error and
   * `usage` as what it is known to have spent (a crashed run's recorded rows),
   * through the same pipeline (redaction, outbox) as every record. Used by a
   * resumed evaluation to close the run it took over.
   */
  endOrphan(orphan: OrphanCall, error: unknown, usage?: Record<string, ModelUsage>): void {
    // Its start is on the server (or in a dead process's outbox): send the end only.
    this.#o.pipeline.submit(orphanEnd(orphan, this.#o.owner, error, usage), 'end');
  }

  /**
   * Ends a call the interceptor served without running `fn`: the caller gets
   * the served output (a promise when `fn` is async or promise-like) or the
   * served error. Its output's usage is not counted: the original run spent it.
   */
  #serve(
    spec: OpSpec,
    call: CallRecord,
    fn: (...args: unknown[]) => unknown,
    served: Extract<Interception, { kind: 'serve' }>,
  ): unknown {
    const promised =
      spec.options.chainPromise !== undefined ||
      Object.prototype.toString.call(fn) === '[object AsyncFunction]';
    // Marks the output's usage as counted, so `#finish` adds none of it.
    if (!served.failed) ownUsage(served.output);
    // The served output is the recorded (already post-processed) one.
    const asRecorded = { ...spec, options: { ...spec.options, postprocessOutput: undefined } };
    this.#finish(asRecorded, call, undefined, served.output, served.error, served.failed, undefined);
    if (served.failed) {
      if (promised) return Promise.reject(served.error);
      throw served.error;
    }
    return promised ? Promise.resolve(served.output) : served.output;
  }

  /** Hands the caller a traced stream; the call ends when it does. */
  #traceStream(spec: OpSpec, call: CallRecord, inner: ContextFrame, args: unknown[], stream: object): object {
    let accumulator: StreamAccumulator;
    try {
      accumulator = spec.options.streamAccumulator?.(args) ?? new ChunkList();
    } catch (error) {
      this.#o.warnings.report(
        'start',
        'making the stream accumulator of a call failed; its chunks are kept as a list',
        error,
        call.id,
      );
      accumulator = new ChunkList();
    }
    return traceStream(stream, inner, accumulator, (end) =>
      this.#finish(spec, call, end, end.output, end.error, end.failed, end.usage),
    );
  }

  /**
   * @internal A span started in OpenTelemetry (`WeftSpanProcessor.onStart`):
   * remembered as the parent of what runs under it, so usage rolls up through it.
   */
  spanStarted(span: EndedSpan, parentContext: OtelContext | undefined): void {
    try {
      this.#spans.started(span, parentContext);
    } catch (error) {
      this.#o.warnings.report('start', 'placing an OpenTelemetry span in its trace failed', error);
    }
  }

  /**
   * @internal A span ended in OpenTelemetry (`WeftSpanProcessor.onEnd`),
   * recorded as a finished call of this client. Its usage rolls into its
   * running parent (see `SpanRollUp`); the span is kept by reference and
   * mapped when the pipeline's pool reads it.
   */
  submitSpan(span: EndedSpan): void {
    let totals: ReturnType<SpanRollUp['ended']>;
    try {
      totals = this.#spans.ended(span);
    } catch (error) {
      this.#o.warnings.report('finish', 'rolling the usage of an OpenTelemetry span up failed', error);
    }
    this.#o.pipeline.submit(new SpanCall(span, this.#o.owner, this.#o.prices, totals), 'complete');
  }

  /**
   * A call of a sampled-out trace: not recorded, no snapshot, no record; its
   * ops see the "not sampled" frame and skip too.
   */
  #runUnsampled(
    sampler: Sampler,
    frame: ContextFrame | undefined,
    fn: (...args: unknown[]) => unknown,
    thisArg: unknown,
    args: unknown[],
  ): unknown {
    sampler.countSampledOut();
    const inner =
      frame === undefined
        ? this.#unsampled
        : { call: frame.call, attributes: frame.attributes, unsampledBy: this.#o.owner };
    return callContext.run(inner, Reflect.apply, fn, thisArg, args);
  }

  /**
   * finishCall: output snapshot and summary are set before it returns; the
   * walk, refs, encoding and I/O happen later in the pool.
   */
  #finish(
    spec: OpSpec,
    call: CallRecord,
    stream: StreamEnd | undefined,
    output: unknown,
    error: unknown,
    failed: boolean,
    streamUsage: Record<string, ModelUsage> | undefined,
  ): void {
    const { options } = spec;
    let recorded = output;
    let finished: FinishedCall | undefined;
    if (!failed && options.postprocessOutput) {
      // User hook: its error is the user's. The call is still ended (as that
      // error) so it never lingers in the in-flight registry.
      try {
        recorded = options.postprocessOutput(output);
      } catch (hookError) {
        this.#finish({ ...spec, options: {} }, call, undefined, undefined, hookError, true, undefined);
        throw hookError;
      }
    }
    try {
      const perf = performance.now();
      call.endedAt = performance.timeOrigin + perf;
      call.failed = failed;
      call.error = error;
      // A failed stream still records what it streamed; a plain throw has no output.
      // A small output in its safe form is written as msgpack now, once (the pool copies the bytes).
      call.output =
        recorded === undefined
          ? undefined
          : snapshotOutput(recorded, this.#o.snapshot.limits, this.#o.output);
      // The call's own usage is priced before its children's (already priced) roll into it. A call
      // whose children reported usage returns their sum or one of their responses: its output's usage
      // is theirs, not its own (counting it would double the trace's tokens and cost).
      const own = streamUsage ?? (call.childUsage === undefined ? ownUsage(output) : undefined);
      const usage = addUsage(priceUsage(own, this.#o.prices), call.childUsage);
      const status = failed ? 'error' : 'success';
      call.summary = finishedSummary(call, perf, status, usage, stream?.firstOutputAt);
      rollUpInto(call.parent, usage, status);
      if (call.spanHold !== undefined) this.#spans.callEnded(call, call.parent);
      call.parent = undefined;
      call.childUsage = undefined;
      this.#o.inFlight.delete(call);
      // Before the sampler: a call it drops has its output given back at once.
      if (options.onFinish) finished = finishedView(call);
      const held = this.#o.sampler?.heldOf(call);
      if (held === undefined) this.#o.pipeline.submit(call, call.startSubmitted ? 'end' : 'complete');
      else
        for (const kept of (this.#o.sampler as Sampler).finished(held, call))
          this.#o.pipeline.submit(kept, 'complete');
    } catch (thrown) {
      this.#o.warnings.report(
        'finish',
        `finishing call ${call.opName} failed; it is not recorded`,
        thrown,
        call.id,
      );
      return;
    }
    if (options.onFinish && finished !== undefined) options.onFinish(finished);
  }
}
