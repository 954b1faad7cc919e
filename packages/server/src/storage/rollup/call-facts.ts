import type { CallItem, CallSummary } from '@weft/protocol';
import { endStatus } from '../call-status.js';
import { plainOpName } from '../op-name.js';

/** What rollups need of a call's start: when, where in its trace, and the dimensions it is grouped by. */
export interface StartFacts {
  startedAt: number;
  /** No parent: the root of its trace. */
  root: boolean;
  /** The plain op name (every version of an op together). */
  op: string;
  /** The `version` attribute, as text. */
  version: string | null;
  /** The `user.id` attribute, as text. */
  user: string | null;
  session: string | null;
  /** The distinct strings of the `tags` attribute. */
  tags: string[];
}

/** One model's share of a call's `summary.usage`. */
export interface ModelFacts {
  model: string;
  input: number;
  output: number;
  cached: number;
  reasoning: number;
  total: number;
  /** Nano-dollars (`costUsd` × 10⁹, rounded), so sums are exact integers; `null` for an unpriced model. */
  costNano: number | null;
}

/** What rollups need of a call's end. */
export interface EndFacts {
  endedAt: number;
  status: 'success' | 'error';
  latencyGivenMs: number | null;
  ttftMs: number | null;
  models: ModelFacts[];
  /** `summary.costUsd` in nano-dollars; `null` when no model had a price. */
  costNano: number | null;
}

/**
 * A call as rollups see it: each half as its last record carried it, like
 * the calls table (a start replaces the start half, an end the end half; a
 * record never clears the other half).
 */
export interface CallFacts {
  start: StartFacts | null;
  end: EndFacts | null;
}

/** No facts yet: a call none of whose records has arrived. */
export const NO_FACTS: CallFacts = { start: null, end: null };

/** `facts` after `item` arrived: its start and end halves replace the stored ones it carries. */
export function mergeFacts(facts: CallFacts, item: CallItem): CallFacts {
  return {
    start: item.type === 'end' ? facts.start : startFactsOf(item),
    end: item.type === 'start' ? facts.end : endFactsOf(item),
  };
}

/** `facts` with a new end summary (the OTLP usage roll-up recomputed a span call's totals). */
export function withSummary(facts: CallFacts, summary: CallSummary): CallFacts {
  if (facts.end === null) return facts;
  return { start: facts.start, end: { ...facts.end, ...usageFactsOf(summary) } };
}

/** Latency of a call with both halves: the SDK's `latencyMs`, else end minus start (never negative). */
export function latencyOf(facts: CallFacts): number | null {
  if (facts.start === null || facts.end === null) return null;
  return facts.end.latencyGivenMs ?? Math.max(0, facts.end.endedAt - facts.start.startedAt);
}

/** Equal facts: a re-sent record changes nothing, and rollups skip it. */
export function sameFacts(a: CallFacts, b: CallFacts): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Nano-dollars of a cost in US dollars. */
export function nanoUsd(usd: number | undefined): number | null {
  return usd === undefined ? null : Math.round(usd * 1e9);
}

function startFactsOf(item: Exclude<CallItem, { type: 'end' }>): StartFacts {
  const attributes = item.attributes ?? {};
  return {
    startedAt: item.startedAt,
    root: item.parentId === null,
    op: plainOpName(item.opName),
    version: scalarText(attributes.version),
    user: scalarText(attributes['user.id'] ?? nested(attributes.user, 'id')),
    session: item.sessionId ?? null,
    tags: tagsOf(attributes.tags),
  };
}

function endFactsOf(item: Exclude<CallItem, { type: 'start' }>): EndFacts {
  const summary = item.summary ?? {};
  const ttft = summary.timeToFirstTokenMs;
  return {
    endedAt: item.endedAt,
    status: endStatus(item) === 'error' ? 'error' : 'success',
    latencyGivenMs: summary.latencyMs ?? null,
    ttftMs: typeof ttft === 'number' && Number.isFinite(ttft) && ttft >= 0 ? ttft : null,
    ...usageFactsOf(summary),
  };
}

function usageFactsOf(summary: CallSummary): Pick<EndFacts, 'models' | 'costNano'> {
  const models: ModelFacts[] = [];
  for (const [model, usage] of Object.entries(summary.usage ?? {})) {
    models.push({
      model,
      input: usage.inputTokens,
      output: usage.outputTokens,
      cached: usage.cachedInputTokens ?? 0,
      reasoning: usage.reasoningTokens ?? 0,
      total: usage.totalTokens,
      costNano: nanoUsd(usage.costUsd),
    });
  }
  return { models, costNano: nanoUsd(summary.costUsd) };
}

/** A string, finite number or boolean attribute as text; anything else is none. */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value.length <= 1_000 ? value : null;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return String(value);
  return null;
}

function nested(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** Most tags a call is counted under (the rest are stored but not rolled up). */
const MAX_TAGS = 20;

function tagsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const tags = new Set<string>();
  for (const tag of list) {
    if (typeof tag === 'string' && tag.length > 0 && tag.length <= 256) tags.add(tag);
    if (tags.size >= MAX_TAGS) break;
  }
  return [...tags];
}
