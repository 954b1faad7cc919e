import { WeftError } from '@weft/protocol';

/** `weft call ID` (or an MCP tool) found no call with that id where it looked (exit 4). */
export class CallNotFoundError extends WeftError {
  readonly callId: string;

  /** @param where `in project demo`, `in any project of the server at …` */
  constructor(callId: string, where: string) {
    super({
      code: 'WEFT_NOT_FOUND',
      message: `No call ${callId} ${where}. Check the id (a call id, not a trace id, unless it is the trace's root); list calls with \`weft calls\`.`,
    });
    this.callId = callId;
  }
}
