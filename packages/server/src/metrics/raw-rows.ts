import type { Call, CallItem, MetricsQueryParsed } from '@weft/protocol';
import { InvalidRequestError } from '../errors/index.js';
import {
  addCallValues,
  addFeedbackValues,
  type CallFacts,
  type CallRollupRow,
  type CallRollupValues,
  callContribution,
  emptyCallValues,
  emptyFeedbackValues,
  type FeedbackRollupRow,
  feedbackValues,
  levelStart,
  mergeFacts,
  modelValues,
  NO_FACTS,
  type StartFacts,
  type Storage,
} from '../storage/index.js';

/**
 * Most calls a query answered from raw calls may read. Past it the query is
 * refused with a 400 that says why rollups could not answer it.
 */
export const MAX_RAW_CALLS = 20_000;

/** Calls per page read. */
const PAGE = 1_000;

/**
 * The rows rollups would give for the calls matching the query's filter in
 * `[from, to)`, computed from the calls themselves (per minute, grouped as
 * asked): the answer for filters rollups do not keep. Each call counts
 * exactly as its rollup contribution does (`callContribution`).
 */
export async function rawRows(
  storage: Storage,
  query: MetricsQueryParsed,
  range: { from: number; to: number },
  reason: string,
): Promise<{ calls: CallRollupRow[]; feedback: FeedbackRollupRow[] }> {
  const calls = new Map<string, CallRollupRow>();
  const feedback = new Map<string, FeedbackRollupRow>();
  const names = new Set(query.measures.flatMap((m) => (typeof m === 'object' ? [m.feedback] : [])));
  const filter = query.filter ?? {};
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await storage.queryCalls({
      ...filter,
      project: query.project,
      startedAfter: Math.max(range.from, filter.startedAfter ?? 0),
      startedBefore: Math.min(range.to, filter.startedBefore ?? Number.POSITIVE_INFINITY),
      sort: { field: 'startedAt', direction: 'asc' },
      limit: PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    read += page.calls.length;
    if (read > MAX_RAW_CALLS) {
      throw new InvalidRequestError(
        [
          {
            path: 'filter',
            message: `rollups do not keep ${reason}, and more than ${MAX_RAW_CALLS.toLocaleString('en-US')} calls match in this range to read one by one: narrow the range, or filter by op, status, root calls, version, user, one tag or session`,
          },
        ],
        'body',
      );
    }
    for (const call of page.calls) countCall(call, query, names, calls, feedback);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return { calls: [...calls.values()], feedback: [...feedback.values()] };
}

function countCall(
  call: Call,
  query: MetricsQueryParsed,
  names: ReadonlySet<string>,
  calls: Map<string, CallRollupRow>,
  feedback: Map<string, FeedbackRollupRow>,
): void {
  const facts = mergeFacts(NO_FACTS, itemOf(call));
  const contribution = callContribution(facts);
  if (contribution === undefined) return;
  const { start, status, totals } = contribution;
  const t = levelStart('m', start.startedAt);
  const groups = groupsOf(facts, start, query, totals);
  for (const [group, values] of groups) {
    const key = `${t}\u0000${status}\u0000${group}`;
    let row = calls.get(key);
    if (row === undefined) {
      row = { t, status, group, values: emptyCallValues() };
      calls.set(key, row);
    }
    addCallValues(row.values, values);
  }
  for (const given of call.feedback ?? []) {
    if (!names.has(given.name)) continue;
    for (const [group] of groups) {
      const key = `${t}\u0000${given.name}\u0000${group}`;
      let row = feedback.get(key);
      if (row === undefined) {
        row = { t, name: given.name, group, values: emptyFeedbackValues() };
        feedback.set(key, row);
      }
      addFeedbackValues(row.values, feedbackValues(given.value));
    }
  }
}

/** The groups a call counts in, each with what it adds there (a model's group: that model's share). */
function groupsOf(
  facts: CallFacts,
  start: StartFacts,
  query: MetricsQueryParsed,
  totals: CallRollupValues,
): [string | null, CallRollupValues][] {
  const filter = query.filter ?? {};
  switch (query.groupBy) {
    case undefined:
      return [[null, totals]];
    case 'op':
      return [[start.op, totals]];
    case 'model':
      return (facts.end?.models ?? []).map((model) => [model.model, modelValues(totals, model)]);
    case 'version':
      return start.version === null ? [] : [[start.version, totals]];
    case 'user':
      return start.user === null ? [] : [[start.user, totals]];
    case 'session':
      return start.session === null ? [] : [[start.session, totals]];
    case 'tag': {
      // A tag filter with a split by tag keeps the filtered tags' groups, as rollups do.
      const wanted =
        filter.tag === undefined ? undefined : new Set(Array.isArray(filter.tag) ? filter.tag : [filter.tag]);
      return start.tags.filter((tag) => wanted === undefined || wanted.has(tag)).map((tag) => [tag, totals]);
    }
  }
}

/** A stored call as the record that would store it. */
function itemOf(call: Call): CallItem {
  const start = {
    id: call.id,
    traceId: call.traceId,
    parentId: call.parentId,
    opName: call.opName,
    startedAt: call.startedAt,
    inputs: {},
    attributes: call.attributes,
    ...(call.sessionId ? { sessionId: call.sessionId } : {}),
  };
  if (call.endedAt === null) return { type: 'start', ...start };
  return {
    type: 'complete',
    ...start,
    endedAt: call.endedAt,
    ...(call.exception === null ? {} : { exception: call.exception }),
    ...(call.summary === null ? {} : { summary: call.summary }),
  };
}
