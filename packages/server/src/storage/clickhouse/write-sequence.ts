/** Orders copies of the same row written by this process within one millisecond. */
let sequence = 0;

/**
 * A `seq` for a ReplacingMergeTree row (the newest wins): milliseconds since
 * the epoch times 1,000 plus a counter, so rows written in the same
 * millisecond by this process still order.
 */
export function nextSeq(): number {
  sequence = (sequence + 1) % 1_000;
  return Date.now() * 1_000 + sequence;
}
