import { type CallComplete, type CallSummary, type PriceOverrides, spanToCall } from '@weft/protocol';
import { type CallRecord, newCallId } from '../calls/index.js';
import { failureMarker } from '../pipeline/index.js';
import { type EndedSpan, otelResourceOf, otelSpanOf } from './ended-span.js';
import { setSummaryUsage } from './roll-up.js';
import type { SpanTotals } from './span-roll-up.js';

/**
 * An ended OpenTelemetry span as a finished Weft call, handed to the
 * pipeline's submit path like a traced op's call. The caller's side
 * (`SpanProcessor.onEnd`) only keeps the span by reference: the mapping
 * (ids, GenAI messages, usage and cost — `spanToCall` in `@weft/protocol`)
 * runs the first time the pipeline reads the record, which is in its pool,
 * off the caller's turn.
 */
export class SpanCall implements CallRecord {
  readonly owner: object;
  parent: CallRecord | undefined = undefined;
  childUsage: undefined = undefined;
  childCounts: undefined = undefined;
  startSubmitted = false;
  readonly #span: EndedSpan;
  readonly #prices: PriceOverrides | undefined;
  readonly #totals: SpanTotals | undefined;
  #mapped: CallComplete | undefined;

  /** `totals`: what rolled up into the span while it ran (see `SpanRollUp`); `undefined`: its own usage only. */
  constructor(
    span: EndedSpan,
    owner: object,
    prices: PriceOverrides | undefined,
    totals?: SpanTotals | undefined,
  ) {
    this.#span = span;
    this.owner = owner;
    this.#prices = prices;
    this.#totals = totals;
  }

  get id(): string {
    return this.#call().id;
  }
  get traceId(): string {
    return this.#call().traceId;
  }
  get parentId(): string | null {
    return this.#call().parentId;
  }
  get opName(): string {
    return this.#call().opName;
  }
  get displayName(): string | undefined {
    return this.#call().displayName ?? undefined;
  }
  get startedAt(): number {
    return this.#call().startedAt;
  }
  get startedAtPerf(): number {
    return 0;
  }
  get inputs(): unknown {
    return this.#call().inputs;
  }
  /**
   * The pipeline drops a call's values once its record is encoded. A span
   * call's values are mapped from its span, which is released with the span
   * call itself (it is young: made when the span ended), so there is nothing
   * to drop.
   */
  set inputs(_released: unknown) {}
  get attributes(): Record<string, unknown> | undefined {
    return this.#call().attributes ?? undefined;
  }
  get endedAt(): number {
    return this.#call().endedAt;
  }
  get output(): unknown {
    return this.#call().output;
  }
  /** See the `inputs` setter: nothing to drop. */
  set output(_released: unknown) {}
  /** The span's exception as recorded (name, message, stack); the pipeline describes it like a thrown error. */
  get error(): unknown {
    return this.#call().exception ?? undefined;
  }
  get failed(): boolean {
    return this.#call().exception != null;
  }
  get summary(): CallSummary | undefined {
    return this.#call().summary ?? undefined;
  }

  #call(): CallComplete {
    if (this.#mapped !== undefined) return this.#mapped;
    let mapped: CallComplete;
    try {
      const mapping = spanToCall(otelSpanOf(this.#span), otelResourceOf(this.#span), {
        prices: this.#prices,
      });
      mapped =
        mapping.status === 'mapped' ? this.#withTotals(mapping.call) : this.#unmappable(mapping.reason);
    } catch (error) {
      mapped = this.#unmappable(error instanceof Error ? error.message : String(error));
    }
    this.#mapped = mapped;
    return mapped;
  }

  /** The call with the usage and child counts of everything under it, like a traced op's summary. */
  #withTotals(call: CallComplete): CallComplete {
    const totals = this.#totals;
    if (totals === undefined) return call;
    const summary: CallSummary = { ...call.summary };
    setSummaryUsage(summary, totals.usage);
    if (totals.childCounts !== undefined) summary.childCounts = totals.childCounts;
    return { ...call, summary };
  }

  /** A span the mapping rejects (invalid ids or times) is still recorded, as a root call naming the problem. */
  #unmappable(reason: string): CallComplete {
    const id = newCallId();
    let name: string;
    try {
      name = String(this.#span.name);
    } catch {
      name = 'otel span';
    }
    const startedAt = Date.now();
    return {
      type: 'complete',
      id,
      traceId: id,
      parentId: null,
      opName: name,
      startedAt,
      endedAt: startedAt,
      inputs: {},
      output: failureMarker('otel', new Error(reason)),
    } as CallComplete;
  }
}
