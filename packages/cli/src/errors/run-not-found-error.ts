import { WeftError } from '@weft/protocol';

/** An id given as an evaluation run names no call, or a call that is not a run (exit 4). */
export class RunNotFoundError extends WeftError {
  readonly runId: string;

  constructor(runId: string, project: string, reason: string) {
    super({
      code: 'WEFT_NOT_FOUND',
      message: `No evaluation run ${runId} in project ${project}: ${reason}. Run ids are the ids of Evaluation.evaluate calls; list them with \`weft calls --project ${project} --op Evaluation.evaluate\`.`,
    });
    this.runId = runId;
  }
}
