/** What a flush reports: outcomes of the calls it covered, and what was still pending at its deadline. */
export interface FlushResult {
  /** Calls the server acknowledged. */
  sent: number;
  /**
   * Calls that went to the durable outbox (the server could not take them
   * then). A flush replays the outbox as soon as the server answers, so
   * after an outage it rode out they are on the server too, counted in
   * `replayed`; what is still on disk: `diagnostics().outbox.records`.
   */
  spilled: number;
  /** Calls that could not be delivered nor kept (each was reported as a warning). */
  failed: number;
  /** Units of work (calls, start records, object versions) not finished at the deadline; 0 when complete. */
  pending: number;
  /** Object versions stored (or found already stored) by the server. */
  objects: number;
  /** Object versions that could not be stored. */
  objectsFailed: number;
  /** Records from the outbox (an earlier outage, this process's or a dead one's) the server acknowledged since the last flush. */
  replayed: number;
}
