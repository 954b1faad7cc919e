import type { Call } from '@weft/protocol';
import { CallNotFoundError, ServerResponseError } from '../errors/index.js';
import type { ServerTarget } from '../http/index.js';
import { readCall } from './read-call.js';
import { projectsOrExplain } from './resolve-project.js';

/** Projects probed at once when looking for a call in every project. */
const PROBES_AT_ONCE = 8;

const isNotFound = (error: unknown) =>
  ServerResponseError.isInstance(error) && (error as ServerResponseError).statusCode === 404;

/**
 * A call by id, in `project` when given, else in whichever project of the
 * server holds it: call ids are UUIDs, unique across projects, so a run id
 * or a call id needs no project.
 *
 * @throws {CallNotFoundError} (exit 4) when no project has it.
 */
export async function locateCall(
  target: ServerTarget,
  id: string,
  project: string | undefined,
): Promise<Call> {
  if (project !== undefined) {
    try {
      return await readCall(target, project, id);
    } catch (error) {
      if (isNotFound(error)) throw new CallNotFoundError(id, `in project ${project}`);
      throw error;
    }
  }
  const projects = await projectsOrExplain(target);
  for (let i = 0; i < projects.length; i += PROBES_AT_ONCE) {
    const found = await Promise.all(
      projects.slice(i, i + PROBES_AT_ONCE).map((p) =>
        readCall(target, p.name, id).catch((error: unknown) => {
          if (isNotFound(error)) return undefined;
          throw error;
        }),
      ),
    );
    const call = found.find((c) => c !== undefined);
    if (call !== undefined) return call;
  }
  throw new CallNotFoundError(id, `in any project of the server at ${target.url}`);
}
