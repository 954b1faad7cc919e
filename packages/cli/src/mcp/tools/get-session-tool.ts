import { z } from 'zod';
import { cutString, formatMs, formatTime, latencyOf, turnMessages } from '../../render/index.js';
import { fetchCalls } from '../../server-api/index.js';
import { defineTool } from '../define-tool.js';
import { projectArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

/** Characters of one message shown before it is cut (get_call reads the turn whole). */
const MESSAGE_CHARS = 2_000;

export const getSessionTool = defineTool({
  name: 'get_session',
  description:
    "Read a session as a conversation: each turn (a trace) with the user's message and the reply or error, in order, with the trace id that get_trace takes.",
  inputSchema: {
    session_id: z.string().min(1).max(256),
    project: projectArg,
    limit: z.number().int().min(1).max(500).default(50).describe('Most turns, from the first'),
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const { calls, more } = await fetchCalls(
      context.target,
      { project, sessionId: args.session_id, parentId: null, sort: { field: 'startedAt', direction: 'asc' } },
      args.limit,
    );
    if (calls.length === 0)
      return textResult(`No session ${args.session_id} in project ${project} (or it has no turns).`);
    const lines = [`session ${args.session_id} (project ${project})`];
    calls.forEach((call, i) => {
      const latency = latencyOf(call);
      lines.push(
        '',
        `turn ${i + 1}  ${formatTime(call.startedAt)}  ${call.status}${latency === undefined ? '' : `  ${formatMs(latency)}`}  trace=${call.traceId}`,
      );
      for (const m of turnMessages(call)) lines.push(`[${m.role}] ${cutString(m.text, MESSAGE_CHARS)}`);
    });
    if (more) lines.push('', `More turns follow: raise limit (now ${args.limit}).`);
    return textResult(lines.join('\n'));
  },
});
