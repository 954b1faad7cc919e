import { formatCount } from '../render/index.js';
import { ServerResponseError, UsageError } from '../errors/index.js';
import type { ServerTarget } from '../http/index.js';
import { listProjects, type ProjectSummary } from './list-projects.js';

/** Projects named in a "which one?" message before "and N more". */
const LISTED = 10;

/**
 * The project a command reads: the one given, else the server's only
 * project. With none given and several (or none) on the server, a usage
 * error lists them and says how to pick one.
 */
export async function resolveProject(target: ServerTarget, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const projects = await projectsOrExplain(target);
  if (projects.length === 1) return projects[0]!.name;
  if (projects.length === 0) {
    throw new UsageError(
      `No project given, and the server at ${target.url} has none yet: trace something first (weft.init({ project })), or pass --project <name>.`,
    );
  }
  throw new UsageError(
    `No project given, and the server at ${target.url} has ${projects.length}: ${describeProjects(projects)}. Pick one with --project <name> or WEFT_PROJECT.`,
  );
}

/**
 * The server's projects, for finding one when none was given. A token that
 * may not list projects (scoped to some of them) gets the usage error
 * asking for --project instead of the bare 403.
 */
export async function projectsOrExplain(target: ServerTarget): Promise<ProjectSummary[]> {
  try {
    return await listProjects(target);
  } catch (error) {
    if (ServerResponseError.isInstance(error) && (error as ServerResponseError).statusCode === 403) {
      throw new UsageError(
        "No project given, and this token may not list the server's projects: pass --project <name> or set WEFT_PROJECT.",
      );
    }
    throw error;
  }
}

/** `a (120 calls), b (3 calls) and 12 more`, busiest first. */
function describeProjects(projects: readonly ProjectSummary[]): string {
  const sorted = [...projects].sort((x, y) => y.callCount - x.callCount || x.name.localeCompare(y.name));
  const named = sorted
    .slice(0, LISTED)
    .map((p) => `${p.name} (${formatCount(p.callCount)} call${p.callCount === 1 ? '' : 's'})`)
    .join(', ');
  return sorted.length > LISTED ? `${named} and ${sorted.length - LISTED} more (weft projects)` : named;
}
