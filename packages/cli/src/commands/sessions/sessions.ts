import { formatUsd, type SessionSummary } from '@weft/protocol';
import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { formatCount, formatTime } from '../../render/index.js';
import { querySessions, resolveProject } from '../../server-api/index.js';
import { type Column, writeRows } from '../output-format.js';
import type { SessionsOptions } from './sessions-options.js';

const iso = (ms: number) => new Date(ms).toISOString();

const COLUMNS: readonly Column<SessionSummary>[] = [
  { title: 'session', cell: (s) => s.sessionId },
  { title: 'turns', cell: (s) => String(s.turns), raw: (s) => s.turns },
  { title: 'first (UTC)', cell: (s) => formatTime(s.firstStartedAt), raw: (s) => iso(s.firstStartedAt) },
  { title: 'last (UTC)', cell: (s) => formatTime(s.lastActivityAt), raw: (s) => iso(s.lastActivityAt) },
  { title: 'tokens', cell: (s) => formatCount(s.totalTokens), raw: (s) => s.totalTokens },
  { title: 'cost', cell: (s) => formatUsd(s.costUsd), raw: (s) => s.costUsd },
  { title: 'errors', cell: (s) => String(s.errors), raw: (s) => s.errors },
];

/** Most sessions asked for per request. */
const PAGE = 200;

/** `weft sessions`: a project's sessions; JSON is an array of the API's session summaries. */
export async function sessions(options: SessionsOptions, io: CliIo): Promise<number> {
  const target = { url: options.url, token: options.token };
  const project = await resolveProject(target, options.project);
  const found: SessionSummary[] = [];
  let cursor: string | undefined;
  let more = false;
  do {
    const page = await querySessions(target, {
      project,
      limit: Math.min(PAGE, options.limit - found.length),
      ...(options.since === undefined ? {} : { activeAfter: options.since }),
      ...(cursor ? { cursor } : {}),
    });
    found.push(...page.sessions);
    cursor = page.nextCursor ?? undefined;
    more = cursor !== undefined;
  } while (more && found.length < options.limit);
  if (found.length === 0 && options.format === 'table') {
    io.stdout.write(`No sessions in project ${project}.\n`);
    return ExitCode.ok;
  }
  writeRows(io, options.format, COLUMNS, found, () => found);
  if (options.format === 'table') {
    io.stdout.write(
      `${found.length} session(s)${more ? ` shown; more match (raise --limit, now ${options.limit})` : ''}. Read one: weft calls --session <id> --roots\n`,
    );
  }
  return ExitCode.ok;
}
