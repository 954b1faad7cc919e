import { WeftError } from '@weft/protocol';
import type { FlushResult } from '../lifecycle/index.js';

/**
 * `WeftSpanProcessor.forceFlush()` / `shutdown()` ended with spans neither
 * acknowledged by the server nor kept in the outbox: some failed (each was
 * reported as a warning) or the flush timeout passed first.
 */
export class SpanFlushIncompleteError extends WeftError {
  /** What the flush reported. */
  readonly result: FlushResult;

  constructor(result: FlushResult) {
    super({
      code: 'WEFT_OTEL_FLUSH_INCOMPLETE',
      message:
        `WeftSpanProcessor: flush incomplete: ${result.failed} call(s) failed and ${result.pending} unit(s) still pending at the deadline ` +
        '(raise `flushTimeoutMs`, or see the "transport" warnings with NODE_DEBUG=weft).',
    });
    this.result = result;
  }
}
