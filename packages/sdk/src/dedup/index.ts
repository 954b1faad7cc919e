export { DigestMemo } from './digest-memo.js';
export { DedupedDelivery, type ValueSink } from './deduped-delivery.js';
export { KnownValues } from './known-values.js';
export { type DedupedRecord, RecordDeduper } from './record-deduper.js';
export {
  DEFAULT_DEDUP_THRESHOLD_BYTES,
  DEFAULT_MAX_KNOWN_VALUES,
  ValueDedup,
  type ValueDedupOptions,
} from './value-dedup.js';
export { type ValueSource, valueItemFor } from './value-item.js';
export { EncodeTimeDedup } from './encode-time-dedup.js';
export { type RecordValues, ValueMarkers } from './value-markers.js';
