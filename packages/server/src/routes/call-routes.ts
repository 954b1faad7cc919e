import {
  type BatchItem,
  type CallItem,
  callQuery,
  type FeedbackItem,
  fillImpliedSummary,
  routes,
  TRACE_CALLS_LIMIT,
  traceCallsQuery,
  type ValueItem,
  valueRead,
} from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { callParams, nodeBudgetOf, routePattern, traceParams } from '../http/index.js';
import { InvalidRequestError, NotFoundError } from '../errors/index.js';
import { parseCallBatch, validate } from '../middleware/index.js';
import type { Storage, StoredValue } from '../storage/index.js';
import {
  expandCallValues,
  expandTraceColumnValues,
  missingValues,
  readStoredValues,
  verifyValueItem,
} from '../values/index.js';

const parseQuery = validate(callQuery, 'body');
const parseCallParams = validate(callParams, 'params');
const parseTraceParams = validate(traceParams, 'params');
const parseTraceQuery = validate(traceCallsQuery, 'query');
const parseValueRead = validate(valueRead, 'body');

/** Call ingest (idempotent upsert), paged queries, point reads, and their deduplicated values by digest. */
export function registerCallRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.callBatch(), async (request) => {
    const batch = parseCallBatch(request.body);
    const { calls, callIndexes, feedback, values } = splitBatch(batch.items);
    // Values first: a digest mismatch rejects that item only, after the rest
    // of the batch is stored (the client drops it by its index and re-sends
    // the rest, which is an idempotent upsert).
    const verified: StoredValue[] = [];
    const rejected = [];
    const budget = nodeBudgetOf(request);
    for (const { item, index } of values) {
      const result = verifyValueItem(item, index, budget);
      if (result instanceof Error) rejected.push(result);
      else verified.push(result);
    }
    if (verified.length > 0) await storage.putValues(batch.project, verified);
    if (feedback.length > 0) await storage.putFeedback(batch.project, feedback);
    if (calls.length > 0) {
      try {
        await storage.ingestCalls(batch.project, calls);
      } catch (error) {
        throw InvalidRequestError.isInstance(error) ? atBatchIndexes(error, callIndexes) : error;
      }
    }
    if (rejected.length > 0) throw rejected[0];
    const missing = await missingValues(storage, batch.project, calls, verified);
    return missing.length > 0
      ? { accepted: batch.items.length, missingValues: missing }
      : { accepted: batch.items.length };
  });

  app.post(routes.callQuery(), async (request) => {
    const query = parseQuery(request.body);
    const page = await storage.queryCalls(query);
    if (query.values === 'digests') return page;
    return { ...page, calls: await expandCallValues(storage, page.calls) };
  });

  app.post(routes.valueRead(), async (request) => {
    const { project, digests } = parseValueRead(request.body);
    return readStoredValues(storage, project, digests);
  });

  app.get(routePattern(routes.traceCalls, 'project', 'traceId'), async (request) => {
    const { project, traceId } = parseTraceParams(request.params);
    const { layout } = parseTraceQuery(request.query);
    // `columns`: the same calls one array per field, each shared value once
    // and expanded once (what the trace view loads).
    if (layout === 'columns')
      return expandTraceColumnValues(
        storage,
        await storage.traceColumns(project, traceId, TRACE_CALLS_LIMIT),
      );
    // One past the limit tells whether the trace holds more than an answer may.
    const calls = await storage.traceCalls(project, traceId, TRACE_CALLS_LIMIT + 1);
    const truncated = calls.length > TRACE_CALLS_LIMIT;
    const shown = truncated ? calls.slice(0, TRACE_CALLS_LIMIT) : calls;
    return { calls: await expandCallValues(storage, shown), truncated };
  });

  app.get(routePattern(routes.call, 'project', 'id'), async (request) => {
    const { project, id } = parseCallParams(request.params);
    const call = await storage.readCall(project, id);
    if (call === undefined) {
      throw new NotFoundError(`No call ${id} in project ${project} (or its start has not arrived yet).`);
    }
    const [expanded] = await expandCallValues(storage, [call]);
    return expanded;
  });
}

/** A batch's call records, feedback items and value items, with each call record's and value item's index in the batch. */
function splitBatch(items: readonly BatchItem[]): {
  calls: CallItem[];
  callIndexes: number[];
  feedback: FeedbackItem[];
  values: { item: ValueItem; index: number }[];
} {
  const calls: CallItem[] = [];
  const callIndexes: number[] = [];
  const feedback: FeedbackItem[] = [];
  const values: { item: ValueItem; index: number }[] = [];
  items.forEach((item, index) => {
    if (item.type === 'feedback') feedback.push(item);
    else if (item.type === 'value') values.push({ item, index });
    else {
      // A record may leave out the latency (protocol 3) and status (4) it implies: every read has them.
      fillImpliedSummary(item);
      calls.push(item);
      callIndexes.push(index);
    }
  });
  return { calls, callIndexes, feedback, values };
}

/** Storage names items by their index among the call records; the client needs their index in its batch. */
function atBatchIndexes(error: InvalidRequestError, callIndexes: readonly number[]): InvalidRequestError {
  if (error.issues.every((issue) => issue.index === undefined)) return error;
  return new InvalidRequestError(
    error.issues.map((issue) => {
      if (issue.index === undefined) return issue;
      const index = callIndexes[issue.index] ?? issue.index;
      return { ...issue, index, path: issue.path.replace(/^items\.\d+/, `items.${index}`) };
    }),
    'body',
  );
}
