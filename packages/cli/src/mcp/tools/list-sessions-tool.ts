import { formatUsd } from '@weft/protocol';
import { z } from 'zod';
import { UsageError } from '../../errors/index.js';
import { TIME_POINT_FORMS, timePointOf } from '../../query/index.js';
import { formatCount, formatTime } from '../../render/index.js';
import { querySessions } from '../../server-api/index.js';
import { defineTool } from '../define-tool.js';
import { projectArg, timeArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

export const listSessionsTool = defineTool({
  name: 'list_sessions',
  description:
    'List the sessions (conversations) of a project, most recently active first: turns, tokens, cost, errors. get_session reads one as a conversation.',
  inputSchema: {
    project: projectArg,
    since: timeArg.describe(`Only sessions active at or after: ${TIME_POINT_FORMS}`),
    limit: z.number().int().min(1).max(200).default(20),
    cursor: z.string().max(1_000).optional(),
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const since = args.since === undefined ? undefined : timePointOf(args.since);
    if (args.since !== undefined && since === undefined) {
      throw new UsageError(`\`since\` must be ${TIME_POINT_FORMS}; got ${JSON.stringify(args.since)}.`);
    }
    const page = await querySessions(context.target, {
      project,
      limit: args.limit,
      ...(since === undefined ? {} : { activeAfter: since }),
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    if (page.sessions.length === 0) return textResult(`No sessions in project ${project}.`);
    const lines = page.sessions.map(
      (s) =>
        `${s.sessionId}  ${s.turns} turns  last ${formatTime(s.lastActivityAt)}  ${formatCount(s.totalTokens)} tokens${s.costUsd === undefined ? '' : `  ${formatUsd(s.costUsd)}`}${s.errors > 0 ? `  ${s.errors} errors` : ''}`,
    );
    if (page.nextCursor !== null) lines.push(`more: pass cursor "${page.nextCursor}"`);
    return textResult(`project ${project}\n${lines.join('\n')}`);
  },
});
