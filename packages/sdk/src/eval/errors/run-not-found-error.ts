import { WeftError } from '@weft/protocol';

/** The call id given as an evaluation run is unknown, or is not an `Evaluation.evaluate` call. */
export class RunNotFoundError extends WeftError {
  readonly runId: string;

  constructor(runId: string, project: string, detail: string) {
    super({
      code: 'WEFT_RUN_NOT_FOUND',
      message: `No evaluation run ${runId} in project ${project}: ${detail}. List runs with \`weft calls --op Evaluation.evaluate\`.`,
    });
    this.runId = runId;
  }
}
