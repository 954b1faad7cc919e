import { type CallItem, decodeMsgpack, fillImpliedSummary } from '@weft/protocol';
import type { RecordSink } from '../../src/testing/index.js';

/**
 * A test-only sink in place of the HTTP batcher: decodes each record (the
 * exact bytes the pipeline encoded) as the server reads it (a complete
 * record's implied latency and status put back) and acknowledges it on a later turn.
 */
export function memorySink(): RecordSink & { items: CallItem[] } {
  const items: CallItem[] = [];
  return {
    items,
    add(record) {
      const item = decodeMsgpack(record.bytes) as CallItem;
      fillImpliedSummary(item);
      items.push(item);
      setImmediate(() => record.done({ status: 'sent' }));
    },
    flush: async () => {},
  };
}
