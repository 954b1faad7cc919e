import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { formatCount, formatTime } from '../../render/index.js';
import { listProjects, type ProjectSummary } from '../../server-api/index.js';
import { type Column, writeRows } from '../output-format.js';
import type { ProjectsOptions } from './projects-options.js';

const COLUMNS: readonly Column<ProjectSummary>[] = [
  { title: 'project', cell: (p) => p.name },
  { title: 'calls', cell: (p) => formatCount(p.callCount), raw: (p) => p.callCount },
  {
    title: 'last call (UTC)',
    cell: (p) => (p.lastCallAt === null ? '-' : formatTime(p.lastCallAt)),
    raw: (p) => (p.lastCallAt === null ? '' : new Date(p.lastCallAt).toISOString()),
  },
];

/** `weft projects`: the server's projects, busiest first; JSON is the API's list (`[{ name, callCount, lastCallAt }]`). */
export async function projects(options: ProjectsOptions, io: CliIo): Promise<number> {
  const found = await listProjects({ url: options.url, token: options.token });
  const sorted = [...found].sort((a, b) => b.callCount - a.callCount || a.name.localeCompare(b.name));
  if (sorted.length === 0 && options.format === 'table') {
    io.stdout.write(`The server at ${options.url} has no project yet.\n`);
    return ExitCode.ok;
  }
  writeRows(io, options.format, COLUMNS, sorted, () => sorted);
  return ExitCode.ok;
}
