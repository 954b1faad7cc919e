import { WeftError } from '@weft/protocol';

/**
 * Some records of an `append()` could not be stored (not bytes, or larger than
 * the outbox can hold). The other records of the same call WERE written.
 */
export class OutboxInvalidRecordError extends WeftError {
  /** Indexes (into the `append()` argument) of the records that were not written. */
  readonly indexes: readonly number[];

  constructor(indexes: readonly number[], reason: string) {
    super({
      code: 'WEFT_OUTBOX_INVALID_RECORD',
      message:
        `Outbox refused ${indexes.length} record(s) at index ${indexes.slice(0, 10).join(', ')}` +
        `${indexes.length > 10 ? ', …' : ''}: ${reason}. The other records of the batch were written.`,
    });
    this.indexes = indexes;
  }
}
