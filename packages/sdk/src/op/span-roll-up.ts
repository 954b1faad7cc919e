import { addUsage, type ModelUsage, type PriceOverrides, spanOwnUsage, traceIdOfOtel } from '@weft/protocol';
import type { CallRecord, UsageParent } from '../calls/index.js';
import { callContext, type OtelContext, SPAN_KEY } from '../context/index.js';
import type { EndedSpan } from './ended-span.js';
import { rollUpInto, setSummaryUsage } from './roll-up.js';
import { WeftCallSpan } from './weft-call-span.js';

type UsageMap = Record<string, ModelUsage>;
type Status = 'success' | 'error';

/** OTel's `SpanStatusCode.ERROR`. */
const STATUS_ERROR = 2;

/** A running span recorded in-process, as the parent of what runs under it. */
class SpanNode implements UsageParent {
  endedAt: number | undefined = undefined;
  /** Totals of children added whatever the span reports: Weft calls, and spans without usage of their own. */
  childUsage: UsageMap | undefined = undefined;
  /** Totals of child spans that report usage of their own: the steps an AI SDK call's own usage already totals. */
  stepUsage: UsageMap | undefined = undefined;
  childCounts: { success: number; error: number } | undefined = undefined;
  readonly parent: UsageParent | undefined;

  constructor(parent: UsageParent | undefined) {
    this.parent = parent;
  }

  addStep(usage: UsageMap | undefined, status: Status): void {
    if (this.endedAt !== undefined) return;
    this.stepUsage = addUsage(this.stepUsage, usage);
    if (this.childCounts === undefined) this.childCounts = { success: 0, error: 0 };
    this.childCounts[status]++;
  }
}

/** What an ended span's call shows beyond its own attributes. */
export interface SpanTotals {
  /** The total of its own usage and everything under it; `undefined`: its own usage (nothing under it used any). */
  usage: UsageMap | undefined;
  childCounts: { success: number; error: number } | undefined;
}

/**
 * Rolls the usage of spans recorded in-process (`WeftSpanProcessor`) up the
 * trace as they end, as the tracer does for Weft calls, so a Weft op that
 * called the AI SDK (or any instrumented client) shows what its spans used:
 *
 * ```
 * weft op agent                    usage = generateText's total + lookup's
 * └─ span ai.generateText          own usage totals its steps (scope 'steps')
 *    ├─ span …doGenerate           own usage: a step, not added again
 *    └─ span ai.toolCall           no usage of its own: its children's total
 *       └─ weft op lookup          rolls into ai.toolCall, not past it
 * ```
 *
 * The rule is the server's for OTLP spans (`rollUpUsage`): a span's total is
 * its own usage plus each child's total, except that a span whose own usage
 * totals its steps (the AI SDK's outer calls) does not add the children that
 * report usage of their own. Spans are keyed by object (the same span object
 * reaches `onStart` and `onEnd`) in a weak map, so a span that never ends
 * costs nothing. On the caller's turn: a map lookup when a span starts, and
 * reading the usage keys of a span that has somewhere to roll into.
 *
 * A span may end after the Weft call it ran under: the AI SDK ends a
 * `streamText` span a few microtasks after its `text` resolves, so an op
 * that returns `await result.text` has ended by then. Its usage is still
 * added — late — to the call's summary and its ended ancestors' (kept
 * linked through {@link CallRecord.spanHold} while such spans run) up to the
 * first running one, which counts it as it counts any child. The pipeline
 * reads a summary when it encodes the record, a turn after the call ended
 * at the earliest; usage that arrives later is on the span's own call only.
 */
export class SpanRollUp {
  readonly #owner: object;
  readonly #prices: PriceOverrides | undefined;
  readonly #nodes = new WeakMap<object, SpanNode>();

  constructor(owner: object, prices: PriceOverrides | undefined) {
    this.#owner = owner;
    this.#prices = prices;
  }

  /**
   * A span started under `parentContext`: its parent is the Weft call or
   * recorded span there, else (a span of another provider in between) the
   * running Weft call of the same trace.
   */
  started(span: EndedSpan, parentContext: OtelContext | undefined): void {
    const parentSpan = parentContext?.getValue(SPAN_KEY);
    let parent: UsageParent | undefined;
    if (parentSpan instanceof WeftCallSpan) parent = this.#running(parentSpan.call);
    else if (parentSpan !== undefined && parentSpan !== null)
      parent = this.parentFor(parentSpan) ?? this.#frameCall(span);
    if (parent !== undefined && !(parent instanceof SpanNode)) hold(parent as CallRecord).open++;
    this.#nodes.set(span, new SpanNode(parent));
  }

  /** The running recorded span `span` as a parent, or `undefined` when it is not one. */
  parentFor(span: unknown): UsageParent | undefined {
    if (typeof span !== 'object' || span === null) return undefined;
    const node = this.#nodes.get(span);
    return node?.endedAt === undefined ? node : undefined;
  }

  /**
   * A span ended: its total rolls into its parent (late, when the parent is
   * a Weft call that already ended). Returns the totals its call shows, or
   * `undefined` when they are its own usage (a span that started before the
   * client, or a root with nothing under it).
   */
  ended(span: EndedSpan): SpanTotals | undefined {
    const node = this.#nodes.get(span);
    if (node === undefined) return undefined;
    this.#nodes.delete(span);
    node.endedAt = Date.now();
    const { parent, childUsage, stepUsage, childCounts } = node;
    if (parent === undefined && childUsage === undefined && stepUsage === undefined) {
      return childCounts === undefined ? undefined : { usage: undefined, childCounts };
    }
    const own = spanOwnUsage(span.attributes as Parameters<typeof spanOwnUsage>[0], span.name, this.#prices);
    const steps = own.scope === 'steps' ? undefined : stepUsage;
    const total = addUsage(addUsage(addUsage(undefined, own.usage), childUsage), steps);
    const status: Status = span.status.code === STATUS_ERROR ? 'error' : 'success';
    if (parent instanceof SpanNode) {
      if (own.usage !== undefined) parent.addStep(total, status);
      else rollUpInto(parent, total, status);
    } else if (parent !== undefined) {
      const call = parent as CallRecord;
      if (call.endedAt === undefined) rollUpInto(call, total, status);
      else rollUpLate(call, total, status);
      release(call);
    }
    return { usage: total, childCounts };
  }

  /**
   * A Weft call ended (its usage already rolled into `parent`): while spans
   * under it run, it keeps `parent`, and its parent keeps it, for their usage.
   */
  callEnded(call: CallRecord, parent: UsageParent | undefined): void {
    const held = call.spanHold;
    if (held === undefined) return;
    if (held.open === 0) {
      call.spanHold = undefined;
      return;
    }
    // Late usage goes on only into a parent that counted this call: one still running.
    if (parent === undefined || parent.endedAt !== undefined) return;
    held.parent = parent;
    if (!(parent instanceof SpanNode)) hold(parent as CallRecord).open++;
  }

  #running(call: CallRecord): UsageParent | undefined {
    return call.owner === this.#owner && call.endedAt === undefined ? call : undefined;
  }

  /** The Weft call running where the span started, when it is of the same trace. */
  #frameCall(span: EndedSpan): UsageParent | undefined {
    const call = callContext.getStore()?.call;
    if (call === undefined || this.#running(call) === undefined) return undefined;
    return call.traceId === traceIdOfOtel(span.spanContext().traceId) ? call : undefined;
  }
}

function hold(call: CallRecord) {
  call.spanHold ??= { open: 0, parent: undefined };
  return call.spanHold;
}

/** One span or held child fewer that may add to `call`; an ended call with none left lets its parent go. */
function release(call: CallRecord): void {
  const held = call.spanHold;
  if (held === undefined || --held.open > 0 || call.endedAt === undefined) return;
  const parent = held.parent;
  call.spanHold = undefined;
  if (parent !== undefined && !(parent instanceof SpanNode)) release(parent as CallRecord);
}

/**
 * Adds usage that arrived after `call` ended to its summary (and a child to
 * its counts), then to each ended ancestor's summary up the kept links, and
 * to the first running ancestor's children, as if it had ended in time.
 */
function rollUpLate(call: CallRecord, usage: UsageMap | undefined, status: Status): void {
  let target: UsageParent | undefined = call;
  for (let first = true; target !== undefined; first = false) {
    if (target.endedAt === undefined) {
      if (first) rollUpInto(target, usage, status);
      else target.childUsage = addUsage(target.childUsage, usage);
      return;
    }
    const summary = target instanceof SpanNode ? undefined : (target as CallRecord).summary;
    if (summary === undefined) return; // an ended span's call: sent with what it had
    if (usage !== undefined) setSummaryUsage(summary, addUsage(summary.usage, usage));
    if (first) {
      summary.childCounts ??= { success: 0, error: 0 };
      summary.childCounts[status] = (summary.childCounts[status] ?? 0) + 1;
    }
    target = (target as CallRecord).spanHold?.parent;
  }
}
