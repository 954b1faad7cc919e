import type { CallComplete, CallItem, FeedbackItem } from '@weft/protocol';
import fc from 'fast-check';
import { callIdOf } from './calls.js';

/** The start of the scenarios' window: a whole hour, UTC. */
export const SCENARIO_START = Date.UTC(2026, 10, 2, 9);
/** Three hours: buckets of 15 minutes and hours (also half-hour-offset zones). */
export const SCENARIO_MS = 3 * 3_600_000;

export const SCENARIO_OPS = ['chat', 'retrieve', 'tool'];
export const SCENARIO_MODELS = ['gpt-4o-mini', 'claude-3-5-haiku', 'local-llama'];

interface CallSpec {
  op: number;
  parent: number | null;
  startOffsetMs: number;
  latencyMs: number;
  error: boolean;
  models: { model: number; input: number; output: number; cached: number; priced: boolean }[];
  ttftMs: number | null;
  version: string | null;
  user: string | null;
  tags: string[];
  session: string | null;
  scores: { quality?: number; thumbs?: boolean };
}

/** A call the scenario sends, as a complete record, and the feedback given on it. */
export interface ScenarioCall {
  record: CallComplete;
  feedback: FeedbackItem[];
}

const callSpec = fc.record({
  op: fc.nat(SCENARIO_OPS.length - 1),
  parent: fc.option(fc.nat(), { nil: null }),
  startOffsetMs: fc.nat(SCENARIO_MS - 1),
  latencyMs: fc.double({ min: 0, max: 120_000, noNaN: true }),
  error: fc.boolean(),
  models: fc.array(
    fc.record({
      model: fc.nat(SCENARIO_MODELS.length - 1),
      input: fc.nat(5_000),
      output: fc.nat(2_000),
      cached: fc.nat(500),
      priced: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
  ttftMs: fc.option(fc.double({ min: 0, max: 5_000, noNaN: true }), { nil: null }),
  version: fc.option(fc.constantFrom('v1', 'v2'), { nil: null }),
  user: fc.option(fc.constantFrom('ana', 'bo', 'cy'), { nil: null }),
  tags: fc.subarray(['a', 'b', 'c']),
  session: fc.option(fc.constantFrom('s1', 's2'), { nil: null }),
  scores: fc.record(
    { quality: fc.double({ min: 0, max: 1, noNaN: true }), thumbs: fc.boolean() },
    { requiredKeys: [] },
  ),
});

/** Calls with random ops, trees, times, statuses, usage, attributes and feedback. */
export const scenarioCalls = (salt: number) =>
  fc
    .array(callSpec, { minLength: 1, maxLength: 40 })
    .map((specs) => specs.map((spec, i) => scenarioCall(spec, i, specs, salt)));

function scenarioCall(spec: CallSpec, i: number, all: readonly CallSpec[], salt: number): ScenarioCall {
  const id = callIdOf(i, salt);
  const parentIndex = spec.parent === null || i === 0 ? null : spec.parent % i;
  const startedAt = SCENARIO_START + spec.startOffsetMs;
  const usage: NonNullable<CallComplete['summary']>['usage'] = {};
  let costUsd: number | undefined;
  for (const m of spec.models) {
    const name = SCENARIO_MODELS[m.model] as string;
    const cost = m.priced ? (m.input * 3 + m.output * 11) / 1e7 : undefined;
    usage[name] = {
      requests: 1,
      inputTokens: m.input,
      outputTokens: m.output,
      totalTokens: m.input + m.output,
      cachedInputTokens: m.cached,
      ...(cost === undefined ? {} : { costUsd: cost }),
    };
    if (cost !== undefined) costUsd = (costUsd ?? 0) + cost;
  }
  const attributes: Record<string, unknown> = {};
  if (spec.version !== null) attributes.version = spec.version;
  if (spec.user !== null) attributes['user.id'] = spec.user;
  if (spec.tags.length > 0) attributes.tags = spec.tags;
  const record: CallComplete = {
    type: 'complete',
    id,
    traceId: parentIndex === null ? id : callIdOf(rootOf(parentIndex, all), salt),
    parentId: parentIndex === null ? null : callIdOf(parentIndex, salt),
    opName: SCENARIO_OPS[spec.op] as string,
    startedAt,
    inputs: { i },
    attributes,
    ...(spec.session === null ? {} : { sessionId: spec.session }),
    endedAt: startedAt + spec.latencyMs,
    output: spec.error ? undefined : { ok: i },
    ...(spec.error ? { exception: { name: 'Error', message: `failed ${i}` } } : {}),
    summary: {
      latencyMs: spec.latencyMs,
      ...(spec.models.length > 0 ? { usage } : {}),
      ...(costUsd === undefined ? {} : { costUsd }),
      ...(spec.ttftMs === null ? {} : { timeToFirstTokenMs: spec.ttftMs }),
    },
  };
  const feedback: FeedbackItem[] = [];
  if (spec.scores.quality !== undefined)
    feedback.push(feedbackOn(id, i, 'quality', spec.scores.quality, salt));
  if (spec.scores.thumbs !== undefined)
    feedback.push(feedbackOn(id, i, 'thumbs', spec.scores.thumbs, salt + 1));
  return { record, feedback };
}

function rootOf(index: number, all: readonly CallSpec[]): number {
  let at = index;
  for (;;) {
    const parent = all[at]?.parent;
    if (parent === null || parent === undefined || at === 0) return at;
    at = parent % at;
  }
}

function feedbackOn(
  callId: string,
  i: number,
  name: string,
  value: number | boolean,
  salt: number,
): FeedbackItem {
  return {
    type: 'feedback',
    id: callIdOf(10_000 + i, salt + 7),
    callId,
    name,
    value,
    createdAt: SCENARIO_START,
  };
}

/**
 * How the records travel: each call as one complete record or as a start
 * and an end (in either order), some records twice, feedback anywhere
 * (before its call too), all shuffled into batches.
 */
export const deliveries = (calls: readonly ScenarioCall[]) =>
  fc
    .tuple(
      fc.array(fc.constantFrom('complete', 'halves', 'end-first'), {
        minLength: calls.length,
        maxLength: calls.length,
      }),
      fc.array(fc.boolean(), { minLength: calls.length, maxLength: calls.length }),
      fc.nat(),
      fc.integer({ min: 3, max: 12 }),
    )
    .map(([shapes, repeats, seed, batchSize]) => {
      const items: (CallItem | FeedbackItem)[] = [];
      calls.forEach(({ record, feedback }, i) => {
        const { type: _, endedAt, output, exception, summary, ...start } = record;
        const halves: CallItem[] =
          shapes[i] === 'complete'
            ? [record]
            : [
                { ...start, type: 'start' },
                {
                  type: 'end',
                  id: record.id,
                  endedAt,
                  ...(output === undefined ? {} : { output }),
                  ...(exception === undefined ? {} : { exception }),
                  ...(summary === undefined ? {} : { summary }),
                },
              ];
        if (shapes[i] === 'end-first') halves.reverse();
        items.push(...halves, ...feedback);
        if (repeats[i]) items.push(...halves, ...feedback);
      });
      const shuffled = shuffle(items, seed);
      const batches: (CallItem | FeedbackItem)[][] = [];
      for (let at = 0; at < shuffled.length; at += batchSize)
        batches.push(shuffled.slice(at, at + batchSize));
      return batches;
    });

/** A seeded Fisher–Yates shuffle (fast-check shrinks the seed). */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
