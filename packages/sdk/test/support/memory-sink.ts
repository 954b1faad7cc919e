import { type CallItem, decodeMsgpack } from '@weft/protocol';
import type { RecordSink } from '../../src/testing/index.js';

/**
 * A test-only sink in place of the HTTP batcher: decodes each record (the
 * exact bytes the pipeline encoded) and acknowledges it on a later turn.
 */
export function memorySink(): RecordSink & { items: CallItem[] } {
  const items: CallItem[] = [];
  return {
    items,
    add(record) {
      items.push(decodeMsgpack(record.bytes) as CallItem);
      setImmediate(() => record.done({ status: 'sent' }));
    },
    flush: async () => {},
  };
}
