/**
 * Asked about the values of a call record's `inputs` members and `output`
 * as `encodeIfSafe` writes them, bottom-up, so a large value can be
 * replaced in place by a smaller stand-in (the deduplicator's marker) without
 * a second pass over the record. Only values of at least `thresholdBytes`
 * (encoded) are asked about.
 */
export interface WrittenValueHook {
  readonly thresholdBytes: number;
  /** The stand-in for string `s` when it is known already (so it need not be written), else `undefined`. */
  knownString(s: string): Uint8Array | undefined;
  /**
   * The stand-in for the value just written at `b[start…end)` (`s`: the
   * string it is, when it is one), or `undefined` to keep it.
   */
  written(b: Uint8Array, start: number, end: number, s?: string): Uint8Array | undefined;
  /**
   * Where the record being written stands in what the hook notes for it;
   * {@link since} lists what was noted after it. The encoder caches a
   * container's bytes with what the hook noted while it was written, and
   * gives that to {@link replay} when it writes the cached bytes again.
   */
  checkpoint(): number;
  since(checkpoint: number): readonly unknown[];
  /** The record refers again to values noted for an earlier one (`since`): note them as if they were written anew. */
  replay(noted: readonly unknown[]): void;
}
