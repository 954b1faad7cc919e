/**
 * Work that belongs with a batch of rows (the OTLP usage roll-up): on the
 * main connection, so it can run inside the batch's own transaction.
 */
export interface BatchFollowUp {
  /** Runs inside the transaction that wrote the batch (the writer shares the main connection). */
  inTransaction(): void;
  /** Runs in a transaction of its own, after the batch committed (the writer has its own connection). */
  alone(): void;
}
