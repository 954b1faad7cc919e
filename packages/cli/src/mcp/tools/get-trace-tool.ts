import { z } from 'zod';
import { TraceNotFoundError, UsageError } from '../../errors/index.js';
import { fetchCalls } from '../../server-api/index.js';
import { MIN_OUTLINE_TOKENS, outlineTrace } from '../../trace-outline/index.js';
import { defineTool } from '../define-tool.js';
import { callIdArg, projectArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

/**
 * Most calls of a trace read for an outline (about 200 requests of 1,000);
 * a larger trace is refused with a way to read it in parts, rather than
 * holding the whole of it in memory.
 */
export const MAX_OUTLINED_CALLS = 200_000;

export const getTraceTool = defineTool({
  name: 'get_trace',
  description:
    'Read a trace as an outline that fits a token budget: one line per call shown (op, status, latency, tokens, cost, #id), sibling calls of one op folded with counts and percentiles, values cut to previews. The path to the failing call and the slowest path are always kept. get_call reads any #id in full.',
  inputSchema: {
    trace_id: callIdArg.describe('The trace id (the root call id)'),
    project: projectArg,
    max_tokens: z
      .number()
      .int()
      .min(MIN_OUTLINE_TOKENS)
      .max(100_000)
      .default(4_000)
      .describe('Most tokens the outline may take'),
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const traceId = args.trace_id.toLowerCase();
    const { calls, more } = await fetchCalls(
      context.target,
      { project, traceId, sort: { field: 'startedAt', direction: 'asc' } },
      MAX_OUTLINED_CALLS,
    );
    if (calls.length === 0) throw new TraceNotFoundError(traceId, project);
    if (more) {
      throw new UsageError(
        `Trace ${traceId} has more than ${MAX_OUTLINED_CALLS.toLocaleString('en-US')} calls, too many to outline; read it in parts with search_calls (trace_id with status "error", or sort "latency:desc").`,
      );
    }
    return textResult(outlineTrace(calls, { traceId, project, maxTokens: args.max_tokens }).text);
  },
});
