import { WeftError } from '@weft/protocol';

/**
 * Recorded as the exception of a streamed call whose stream was garbage
 * collected before it was read to the end (and never closed with
 * `return()`): the call ends then instead of staying "running" forever.
 */
export class StreamAbandonedError extends WeftError {
  constructor(chunks: number) {
    super({
      code: 'WEFT_STREAM_ABANDONED',
      message: `The stream this call returned was dropped after ${chunks} chunk(s) without being read to the end or closed; the call ends here. Read it to the end, or close it with return() (for example by breaking out of for await).`,
    });
  }
}
