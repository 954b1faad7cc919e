import type { ServerTarget } from '../http/index.js';
import { resolveProject } from '../server-api/index.js';

/** What every tool of `weft mcp` works with: the server and token it was started with, and its default project. */
export class ToolContext {
  readonly target: ServerTarget;
  readonly #defaultProject: string | undefined;

  constructor(target: ServerTarget, defaultProject: string | undefined) {
    this.target = target;
    this.#defaultProject = defaultProject;
  }

  /**
   * The project a tool call reads: its `project` argument, else the one
   * `weft mcp` was started with, else the server's only project (several:
   * an error that lists them).
   */
  project(given: string | undefined): Promise<string> {
    return resolveProject(this.target, given ?? this.#defaultProject);
  }
}
