import { alignTraces, type Call, routes, traceDiffQuery } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { InvalidRequestError, NotFoundError } from '../errors/index.js';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';
import { expandCallValues } from '../values/index.js';

const parseQuery = validate(traceDiffQuery, 'body');

/** Most calls of one trace a comparison reads: past it the request is refused, not cut short. */
const MAX_TRACE_CALLS = 20_000;

/** Every call of one trace, oldest first, values expanded. */
async function traceCalls(
  storage: Storage,
  project: string,
  traceId: string,
  field: 'left' | 'right',
): Promise<Call[]> {
  const calls: Call[] = [];
  let cursor: string | undefined;
  do {
    const page = await storage.queryCalls({
      project,
      traceId,
      limit: 1_000,
      sort: { field: 'startedAt', direction: 'asc' },
      ...(cursor === undefined ? {} : { cursor }),
    });
    calls.push(...(await expandCallValues(storage, page.calls)));
    if (calls.length > MAX_TRACE_CALLS) {
      throw new InvalidRequestError(
        [
          {
            path: field,
            message: `trace ${traceId} has more than ${MAX_TRACE_CALLS} calls: too many to compare`,
          },
        ],
        'body',
      );
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  if (calls.length === 0) throw new NotFoundError(`No trace ${traceId} in project ${project}.`);
  return calls;
}

function side(traceId: string, calls: readonly Call[]) {
  const root =
    calls.find((call) => call.id === traceId) ?? calls.find((call) => call.parentId === null) ?? calls[0];
  return {
    traceId,
    opName: root?.opName ?? '',
    startedAt: root?.startedAt ?? 0,
    calls: calls.length,
    status: root?.status ?? 'running',
    attributes: root?.attributes ?? {},
  };
}

/** The divergence diff: two traces of a project aligned step by step, with their value differences. */
export function registerTraceDiffRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.traceDiff(), async (request) => {
    const query = parseQuery(request.body);
    const [left, right] = await Promise.all([
      traceCalls(storage, query.project, query.left, 'left'),
      traceCalls(storage, query.project, query.right, 'right'),
    ]);
    return {
      left: side(query.left, left),
      right: side(query.right, right),
      ...alignTraces(left, right, query.limit),
    };
  });
}
