import {
  type CallDeleteRequestParsed,
  type CallDeleteResponse,
  type CallQuery,
  callQuery,
  DELETE_FILTERS,
  type DeletionCounts,
} from '@weft/protocol';
import { InvalidRequestError, NotFoundError } from '../errors/index.js';
import type { Storage } from '../storage/index.js';
import type { DeletionAudit } from './deletion-audit.js';
import { addCounts, NO_COUNTS } from './deletion-counts.js';
import { yieldToRequests } from './yield-to-requests.js';

/** Traces deleted per storage step: each step is one bounded write (one transaction on SQLite). */
export const DELETE_CHUNK_TRACES = 100;

/** Most traces one deletion request may select (their ids are held while it runs). */
export const MAX_DELETE_TRACES = 1_000_000;

/** Calls per page while finding the selected traces. */
const PAGE = 1_000;

/**
 * Deletion on request: finds every trace with a call matching the request's
 * filters (through `queryCalls`, so every engine selects alike), refuses a
 * query that matches every call of the project unless it says `all`, then
 * counts (a dry run) or deletes the traces whole, in bounded steps with the
 * event loop free between them, and records the deletion in the audit log.
 */
export async function deleteCalls(
  storage: Storage,
  audit: DeletionAudit,
  request: CallDeleteRequestParsed,
  actor: string,
): Promise<CallDeleteResponse> {
  const { project } = request;
  const known = (await storage.listProjects()).find((p) => p.name === project);
  if (known === undefined)
    throw new NotFoundError(`No project "${project}" on this server; nothing to delete.`);
  const { traceIds, matchedCalls } = await selectTraces(storage, request);
  if (request.all !== true && matchedCalls > 0 && matchedCalls >= known.callCount) {
    throw new InvalidRequestError(
      [
        {
          path: 'all',
          message: `this query matches every call of project "${project}" (${known.callCount}); to delete them all, send all: true (weft calls delete --all)`,
        },
      ],
      'body',
    );
  }
  if (request.dryRun) {
    return { dryRun: true, ...(await storage.lifecycle.measureTraces(project, [...traceIds])) };
  }
  let counts: DeletionCounts = NO_COUNTS;
  try {
    const ids = [...traceIds];
    for (let i = 0; i < ids.length; i += DELETE_CHUNK_TRACES) {
      const chunk = ids.slice(i, i + DELETE_CHUNK_TRACES);
      counts = addCounts(counts, await storage.lifecycle.deleteTraces(project, chunk, { secure: true }));
      await yieldToRequests();
    }
  } finally {
    // Recorded even when a step failed: what was deleted before it is gone.
    await audit.record({ at: Date.now(), project, actor, query: auditQuery(request), counts });
  }
  return { dryRun: false, ...counts };
}

/** The selected traces, and how many calls (whose start arrived) matched the filters. */
async function selectTraces(
  storage: Storage,
  request: CallDeleteRequestParsed,
): Promise<{ traceIds: Set<string>; matchedCalls: number }> {
  const { project, traceIds: given, userId, sessionId, attributes, startedAfter, startedBefore } = request;
  const filters: CallQuery = { project, userId, sessionId, attributes, startedAfter, startedBefore };
  const traceIds = new Set<string>();
  let matchedCalls = 0;
  const scan = async (query: CallQuery) => {
    let cursor: string | undefined;
    do {
      const page = await storage.queryCalls(
        callQuery.parse({ ...query, sort: { field: 'startedAt', direction: 'asc' }, limit: PAGE, cursor }),
      );
      matchedCalls += page.calls.length;
      for (const call of page.calls) traceIds.add(call.traceId);
      if (traceIds.size > MAX_DELETE_TRACES) {
        throw new InvalidRequestError(
          [
            {
              path: '',
              message: `this query selects more than ${MAX_DELETE_TRACES.toLocaleString('en-US')} traces; narrow it (a time range) and delete in parts, or set a retention`,
            },
          ],
          'body',
        );
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  };
  if (given === undefined) await scan(filters);
  else for (const traceId of new Set(given)) await scan({ ...filters, traceId });
  return { traceIds, matchedCalls };
}

/** The request's filters as the audit log keeps them (no project, no dry-run flag). */
function auditQuery(request: CallDeleteRequestParsed): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const key of [...DELETE_FILTERS, 'all'] as const) {
    if (request[key] !== undefined) query[key] = request[key];
  }
  return query;
}
