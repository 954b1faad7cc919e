/** Counts for diagnostics. */
export interface OutboxStats {
  /** Segment files, including the one being written. */
  segments: number;
  /** Bytes of valid data in those files. */
  bytes: number;
  /** Records in the files not yet acknowledged by a replay of this process. */
  records: number;
  /** Records accepted by `append()` and not written yet (not counting a round being written). */
  pendingRecords: number;
  /** Payload bytes of `pendingRecords`: memory the outbox holds for the caller. */
  pendingBytes: number;
  /**
   * Records deleted unacknowledged since open: the oldest segments, to keep
   * `maxBytes` (a batch in flight when its segment went counts too: the count
   * errs towards reporting a loss), and records lost to a corrupt segment.
   */
  droppedRecords: number;
  /** Appends rejected because the disk write (or its fsync) failed, since open. */
  writeFailures: number;
}

/** The counts of several outboxes summed; undefined for none. */
export function sumOutboxStats(all: Iterable<OutboxStats>): OutboxStats | undefined {
  let sum: OutboxStats | undefined;
  for (const s of all) {
    sum =
      sum === undefined
        ? { ...s }
        : {
            segments: sum.segments + s.segments,
            bytes: sum.bytes + s.bytes,
            records: sum.records + s.records,
            pendingRecords: sum.pendingRecords + s.pendingRecords,
            pendingBytes: sum.pendingBytes + s.pendingBytes,
            droppedRecords: sum.droppedRecords + s.droppedRecords,
            writeFailures: sum.writeFailures + s.writeFailures,
          };
  }
  return sum;
}
