import type { CallQuery } from '@weft/protocol';
import { z } from 'zod';
import { UsageError } from '../../errors/index.js';
import { CALL_SORT_FORMS, callSortOf, TIME_POINT_FORMS, timePointOf } from '../../query/index.js';
import { fetchCalls } from '../../server-api/index.js';
import { callLine } from '../call-lines.js';
import { defineTool } from '../define-tool.js';
import { callIdArg, filterValue, projectArg, timeArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(20)]).optional();

export const searchCallsTool = defineTool({
  name: 'search_calls',
  description:
    'Search the calls of a project, newest first: every filter of the calls query (full text, op, status, trace, roots only, session, user, tag, attributes, feedback, time range), sorted by start time, latency or op. Each line gives the call id and trace id that get_call and get_trace take.',
  inputSchema: {
    project: projectArg,
    text: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Full-text search over names, inputs and outputs; every word must occur'),
    op: oneOrMany(z.string().min(1)).describe('Op name, or several'),
    status: oneOrMany(z.enum(['success', 'error', 'running'])),
    trace_id: callIdArg.optional().describe('Only calls of this trace'),
    parent_id: callIdArg.optional().describe("Only this call's children"),
    roots: z.boolean().optional().describe('Only root calls (one per trace)'),
    session_id: z.string().min(1).max(256).optional(),
    user_id: z.string().min(1).max(1_000).optional().describe("Calls whose 'user.id' attribute is this"),
    tag: oneOrMany(z.string().min(1).max(256)).describe('A tag, or several that must all be there'),
    attributes: z
      .record(z.string().min(1), filterValue)
      .optional()
      .describe('Attribute equality, e.g. {"env":"prod","tier":2}'),
    feedback: z
      .object({ name: z.string().min(1).optional(), value: filterValue.optional() })
      .optional()
      .describe('Calls with feedback ({} any, {name}, {name, value})'),
    since: timeArg.describe(`Started at or after: ${TIME_POINT_FORMS}`),
    until: timeArg.describe('Started before (same forms as since)'),
    sort: z.string().optional().describe(`Order: ${CALL_SORT_FORMS}; default started:desc`),
    limit: z.number().int().min(1).max(200).default(20),
    cursor: z
      .string()
      .max(1_000)
      .optional()
      .describe('next_cursor of the previous answer, with the same filters'),
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const time = (name: string, value: string | number | undefined) => {
      if (value === undefined) return undefined;
      const ms = timePointOf(value);
      if (ms === undefined)
        throw new UsageError(`\`${name}\` must be ${TIME_POINT_FORMS}; got ${JSON.stringify(value)}.`);
      return ms;
    };
    const sort = args.sort === undefined ? undefined : callSortOf(args.sort);
    if (args.sort !== undefined && sort === undefined) {
      throw new UsageError(`\`sort\` must be ${CALL_SORT_FORMS}; got ${JSON.stringify(args.sort)}.`);
    }
    const since = time('since', args.since);
    const until = time('until', args.until);
    const query: Omit<CallQuery, 'limit'> = {
      project,
      ...(args.text ? { text: args.text } : {}),
      ...(args.op ? { opName: args.op } : {}),
      ...(args.status ? { status: args.status } : {}),
      ...(args.trace_id ? { traceId: args.trace_id.toLowerCase() } : {}),
      ...(args.roots ? { parentId: null } : args.parent_id ? { parentId: args.parent_id.toLowerCase() } : {}),
      ...(args.session_id ? { sessionId: args.session_id } : {}),
      ...(args.user_id ? { userId: args.user_id } : {}),
      ...(args.tag ? { tag: args.tag } : {}),
      ...(args.attributes ? { attributes: args.attributes } : {}),
      ...(args.feedback ? { feedback: args.feedback } : {}),
      ...(since === undefined ? {} : { startedAfter: since }),
      ...(until === undefined ? {} : { startedBefore: until }),
      ...(sort ? { sort } : {}),
      ...(args.cursor ? { cursor: args.cursor } : {}),
    };
    const { calls, nextCursor } = await fetchCalls(context.target, query, args.limit);
    if (calls.length === 0) return textResult(`No calls match in project ${project}.`);
    const lines = calls.map(callLine);
    lines.push(
      nextCursor === null
        ? `${calls.length} call(s); no more match.`
        : `${calls.length} call(s) shown; more match: pass cursor "${nextCursor}" for the next page.`,
    );
    return textResult(`project ${project}\n${lines.join('\n')}`);
  },
});
