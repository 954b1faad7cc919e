/** Default records per batch request: the batcher's, and replay's. */
export const DEFAULT_MAX_BATCH_ITEMS = 500;

/** Bounds of one batch: how many items, how many bytes. */
export interface BatchLimits {
  readonly maxItems: number;
  readonly maxBytes: number;
}

/**
 * The one rule every sender batches by (the batcher, replay, table uploads
 * and table records): items join the current batch in order while it has
 * fewer than `maxItems` and their bytes stay within `maxBytes`. The first
 * item always joins: one larger than `maxBytes` travels alone, and the
 * server's answer (413, split or drop) decides its fate.
 *
 * ```
 * sizes 300 300 300 900 200      maxItems 3, maxBytes 1000
 *       └── batch 1 ─┘ └2┘ └3┘    (900 does not fit beside 300s; 200 does not fit beside 900)
 * ```
 */
export class BatchFill {
  readonly #limits: BatchLimits;
  #items = 0;
  #bytes = 0;

  constructor(limits: BatchLimits) {
    this.#limits = limits;
  }

  /** Items in the current batch. */
  get items(): number {
    return this.#items;
  }

  /** Bytes of the current batch. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True when no further item may join (the item bound is reached). */
  get full(): boolean {
    return this.#items >= this.#limits.maxItems;
  }

  /** Whether an item of `bytes` may join the current batch (always, when it is empty). */
  fits(bytes: number): boolean {
    return this.#items === 0 || (!this.full && this.#bytes + bytes <= this.#limits.maxBytes);
  }

  /** Counts an item of `bytes` into the current batch. */
  add(bytes: number): void {
    this.#items += 1;
    this.#bytes += bytes;
  }

  /** Starts the next batch. */
  reset(): void {
    this.#items = 0;
    this.#bytes = 0;
  }
}

/** `items` in consecutive batches by the {@link BatchFill} rule; `sizeOf` gives an item's bytes. */
export function* batchesOf<T>(
  items: Iterable<T>,
  limits: BatchLimits,
  sizeOf: (item: T) => number,
): Generator<T[]> {
  const fill = new BatchFill(limits);
  let batch: T[] = [];
  for (const item of items) {
    const size = sizeOf(item);
    if (!fill.fits(size)) {
      yield batch;
      batch = [];
      fill.reset();
    }
    batch.push(item);
    fill.add(size);
  }
  if (batch.length > 0) yield batch;
}
