import { hasCode, WeftError } from '@weft/protocol';

/**
 * A valid token asked for a project outside its scope. The message names the
 * project, never the token. (Lives beside the middleware that raises it.)
 */
export class ForbiddenError extends WeftError {
  readonly project: string | undefined;

  constructor(project: string | undefined) {
    super({
      code: 'WEFT_FORBIDDEN',
      message:
        project === undefined
          ? 'This route names no project, and the token is scoped to projects; use the admin token.'
          : `The token is not allowed to access project "${project}"; use a token scoped to it or the admin token.`,
    });
    this.project = project;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is ForbiddenError {
    return hasCode(value, 'WEFT_FORBIDDEN');
  }
}
