import { addToBin, type LogHistogram, ZERO_BIN } from '../rollup/index.js';

/*
 * The stored form of a rollup row's log histogram (log-histogram.ts) in
 * SQLite: a BLOB of little-endian float64s, `[zero, first, c₀, c₁, …]`:
 * the count of values read as 0 (`ZERO_BIN`), the first bin with a count,
 * then the counts of bins first, first + 1, … up to the last bin with one
 * (a latency's bins are a contiguous run of a few dozen to a few hundred).
 * Counts are whole numbers well inside float64's exact range, so sums stay
 * exact. Rows merge by adding counts at offsets, with no parsing: a 30-day
 * read adds the bins of thousands of rows (JSON text took most of its time).
 */

const WIDTH = 8;
const HEADER = 2;

/** The stored form of `histogram`; `null` when it is empty. */
export function histogramBlob(histogram: ReadonlyMap<number, number>): Buffer | null {
  if (histogram.size === 0) return null;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const bin of histogram.keys()) {
    if (bin === ZERO_BIN) continue;
    if (bin < first) first = bin;
    if (bin > last) last = bin;
  }
  const span = last >= first ? last - first + 1 : 0;
  const blob = Buffer.alloc((HEADER + span) * WIDTH);
  blob.writeDoubleLE(histogram.get(ZERO_BIN) ?? 0, 0);
  blob.writeDoubleLE(span === 0 ? 0 : first, WIDTH);
  for (const [bin, count] of histogram) {
    if (bin !== ZERO_BIN) blob.writeDoubleLE(count, (HEADER + bin - first) * WIDTH);
  }
  return blob;
}

/** Reads {@link histogramBlob}'s form back; `null` is an empty histogram. */
export function histogramOfBlob(blob: Uint8Array | null): LogHistogram {
  const histogram: LogHistogram = new Map();
  if (blob === null) return histogram;
  const view = viewOf(blob);
  const zero = view.getFloat64(0, true);
  if (zero !== 0) addToBin(histogram, ZERO_BIN, zero);
  const first = view.getFloat64(WIDTH, true);
  const span = view.byteLength / WIDTH - HEADER;
  for (let i = 0; i < span; i++) {
    const count = view.getFloat64((HEADER + i) * WIDTH, true);
    if (count !== 0) addToBin(histogram, first + i, count);
  }
  return histogram;
}

/**
 * Adds up stored histograms without decoding them into maps: the state of
 * the `weft_bins` SQL aggregate (rollup-reader.ts), one per group.
 */
export class HistogramBlobSum {
  #zero = 0;
  #first = 0;
  #counts = new Float64Array(0);

  add(blob: Uint8Array | null): this {
    if (blob === null) return this;
    const view = viewOf(blob);
    this.#zero += view.getFloat64(0, true);
    const span = view.byteLength / WIDTH - HEADER;
    if (span === 0) return this;
    const first = view.getFloat64(WIDTH, true);
    this.#cover(first, first + span);
    const offset = first - this.#first;
    const counts = this.#counts;
    for (let i = 0; i < span; i++) {
      counts[offset + i] = (counts[offset + i] as number) + view.getFloat64((HEADER + i) * WIDTH, true);
    }
    return this;
  }

  /** The sum in {@link histogramBlob}'s form, trimmed to bins with counts; `null` when nothing was counted. */
  blob(): Buffer | null {
    let from = 0;
    let to = this.#counts.length;
    while (from < to && this.#counts[from] === 0) from++;
    while (to > from && this.#counts[to - 1] === 0) to--;
    if (from === to && this.#zero === 0) return null;
    const blob = Buffer.alloc((HEADER + to - from) * WIDTH);
    blob.writeDoubleLE(this.#zero, 0);
    blob.writeDoubleLE(from === to ? 0 : this.#first + from, WIDTH);
    for (let i = from; i < to; i++)
      blob.writeDoubleLE(this.#counts[i] as number, (HEADER + i - from) * WIDTH);
    return blob;
  }

  /** Grows the counts to hold bins `from` … `to` − 1. */
  #cover(from: number, to: number): void {
    const length = this.#counts.length;
    if (length > 0 && from >= this.#first && to <= this.#first + length) return;
    const first = length === 0 ? from : Math.min(from, this.#first);
    const end = length === 0 ? to : Math.max(to, this.#first + length);
    const counts = new Float64Array(end - first);
    if (length > 0) counts.set(this.#counts, this.#first - first);
    this.#first = first;
    this.#counts = counts;
  }
}

/**
 * The stored form of a histogram kept as JSON `[[bin, count], …]` (before
 * migration 11), for the migration that rewrites those rows.
 */
export function histogramBlobOfJson(text: string | null): Buffer | null {
  const histogram: LogHistogram = new Map();
  if (text === null || text === '') return null;
  for (const [bin, count] of JSON.parse(text) as [number, number][]) addToBin(histogram, bin, count);
  return histogramBlob(histogram);
}

function viewOf(blob: Uint8Array): DataView {
  return new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
}
