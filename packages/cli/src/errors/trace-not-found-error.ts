import { WeftError } from '@weft/protocol';

/** `weft calls --trace ID` found no call of that trace in the project (exit 4). */
export class TraceNotFoundError extends WeftError {
  readonly traceId: string;
  readonly project: string;

  constructor(traceId: string, project: string) {
    super({
      code: 'WEFT_NOT_FOUND',
      message: `No calls of trace ${traceId} in project ${project}. Check the id and --project, or list recent calls with \`weft calls --project ${project}\`.`,
    });
    this.traceId = traceId;
    this.project = project;
  }
}
