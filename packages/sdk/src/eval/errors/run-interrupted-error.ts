import { WeftError } from '@weft/protocol';

/**
 * Recorded as the exception of an evaluation run (or of one of its rows)
 * whose process ended before the run did (killed, crashed): a resume of the
 * same checkpoint ends it with this, naming the run that took over.
 */
export class RunInterruptedError extends WeftError {
  /** The `Evaluation.evaluate` call that resumed the checkpoint. */
  readonly resumedBy: string;

  constructor(what: 'run' | 'row', resumedBy: string, checkpoint: string) {
    super({
      code: 'WEFT_EVALUATION_RUN_INTERRUPTED',
      message:
        what === 'run'
          ? `The process running this evaluation ended before the run finished (killed or crashed). Run ${resumedBy} resumed it from checkpoint ${checkpoint} and holds every row; the rows listed here are the ones this run recorded before it stopped.`
          : `This row was still running when its evaluation's process ended (killed or crashed); run ${resumedBy} ran it again from checkpoint ${checkpoint}.`,
    });
    this.resumedBy = resumedBy;
  }
}
