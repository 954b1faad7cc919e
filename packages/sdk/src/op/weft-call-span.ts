import { otelSpanIdOf, otelTraceIdOf } from '@weft/protocol';
import type { CallRecord } from '../calls/index.js';
import type { OtelSpanContext } from '../context/index.js';

/** W3C `traceFlags` bit: sampled. A Weft call is always recorded, so OTel children of it are sampled too. */
const SAMPLED = 1;

/**
 * A running Weft call as OpenTelemetry sees it: the non-recording span put in
 * the active OTel context while the call's function runs, so a span started
 * there gets the call as its parent (trace id = `otelTraceIdOf(call.traceId)`,
 * parent span id = `otelSpanIdOf(call.id)`). It records nothing itself — the
 * call is traced by Weft — so every mutator is a no-op, like the API's own
 * `NonRecordingSpan`. The W3C ids are computed only when a span asks.
 */
export class WeftCallSpan {
  readonly call: CallRecord;
  #spanContext: OtelSpanContext | undefined;

  constructor(call: CallRecord) {
    this.call = call;
  }

  spanContext(): OtelSpanContext {
    this.#spanContext ??= {
      traceId: otelTraceIdOf(this.call.traceId),
      spanId: otelSpanIdOf(this.call.id),
      traceFlags: SAMPLED,
      isRemote: false,
    };
    return this.#spanContext;
  }

  isRecording(): boolean {
    return false;
  }

  setAttribute(): this {
    return this;
  }

  setAttributes(): this {
    return this;
  }

  addEvent(): this {
    return this;
  }

  addLink(): this {
    return this;
  }

  addLinks(): this {
    return this;
  }

  setStatus(): this {
    return this;
  }

  updateName(): this {
    return this;
  }

  end(): void {}

  recordException(): void {}
}
