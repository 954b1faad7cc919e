import { addToBin, type LogHistogram, ZERO_BIN } from '../rollup/index.js';

/*
 * The stored form of a rollup row's log histogram (log-histogram.ts) in
 * SQLite (since migration 12): a BLOB of varints `[zero, first, c₀, c₁, …]`:
 * the count of values read as 0 (`ZERO_BIN`), the first bin with a count,
 * then the counts of bins first, first + 1, … up to the last bin with one
 * (a latency's bins are a contiguous run of a few dozen to a few hundred).
 * Each is a whole number, zigzag-mapped (bins and deltas may be negative)
 * and written 7 bits a byte, least significant first (LEB128): exact for
 * every safe integer, so sums stay exact. Rows merge by adding counts at
 * offsets, with no parsing into maps.
 *
 * Why varints and not a float64 per bin (migration 11's form,
 * histogram-blob-float64.ts): most counts take one or two bytes instead of
 * eight. With float64s an hour row of a busy op took 2–3 KB, more than
 * the ~1,000 bytes SQLite keeps in a B-tree cell of a 4 KiB page; the rest
 * went to overflow pages, and every row a range read stepped over was read
 * whole from them (comparing a WITHOUT ROWID row with the range's end reads
 * the whole record), a system call per row even for panels that read no
 * histogram: two thirds of a 30-day dashboard's CPU at 1,000,000 calls.
 */

/** Most bytes one varint takes (a count below 2⁵², zigzag-mapped, is below 2⁵³: 8 × 7 bits). */
const MAX_VARINT_BYTES = 8;

/** The stored form of `histogram`; `null` when it is empty. */
export function histogramBlob(histogram: ReadonlyMap<number, number>): Buffer | null {
  if (histogram.size === 0) return null;
  const { first, span } = binRun(histogram);
  const counts = new Float64Array(span);
  for (const [bin, count] of histogram) if (bin !== ZERO_BIN) counts[bin - first] = count;
  return encode(histogram.get(ZERO_BIN) ?? 0, first, counts, 0, span);
}

/** The run of bins `first` … `first + span − 1` that holds every bin of `histogram` but `ZERO_BIN` (`span` 0: none). */
export function binRun(histogram: ReadonlyMap<number, number>): { first: number; span: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const bin of histogram.keys()) {
    if (bin === ZERO_BIN) continue;
    if (bin < first) first = bin;
    if (bin > last) last = bin;
  }
  return last >= first ? { first, span: last - first + 1 } : { first: 0, span: 0 };
}

/** Reads {@link histogramBlob}'s form back; `null` is an empty histogram. */
export function histogramOfBlob(blob: Uint8Array | null): LogHistogram {
  const histogram: LogHistogram = new Map();
  if (blob === null) return histogram;
  const reader = new VarintReader(blob);
  const zero = reader.next();
  if (zero !== 0) addToBin(histogram, ZERO_BIN, zero);
  const first = reader.next();
  for (let bin = first; !reader.done(); bin++) {
    const count = reader.next();
    if (count !== 0) addToBin(histogram, bin, count);
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
    const reader = new VarintReader(blob);
    this.#zero += reader.next();
    const first = reader.next();
    const span = reader.remaining();
    if (span === 0) return this;
    this.#cover(first, first + span);
    const counts = this.#counts;
    const end = first - this.#first + span;
    for (let i = first - this.#first; i < end; i++) counts[i] = (counts[i] as number) + reader.next();
    return this;
  }

  /** The sum in {@link histogramBlob}'s form, trimmed to bins with counts; `null` when nothing was counted. */
  blob(): Buffer | null {
    let from = 0;
    let to = this.#counts.length;
    while (from < to && this.#counts[from] === 0) from++;
    while (to > from && this.#counts[to - 1] === 0) to--;
    if (from === to && this.#zero === 0) return null;
    return encode(this.#zero, from === to ? 0 : this.#first + from, this.#counts, from, to);
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

/** `[zero, first, counts[from], …, counts[to − 1]]` as varints. */
function encode(zero: number, first: number, counts: Float64Array, from: number, to: number): Buffer {
  const bytes = Buffer.allocUnsafe((2 + to - from) * MAX_VARINT_BYTES);
  let at = writeVarint(bytes, 0, zero);
  at = writeVarint(bytes, at, first);
  for (let i = from; i < to; i++) at = writeVarint(bytes, at, counts[i] as number);
  return Buffer.from(bytes.subarray(0, at));
}

/** Writes `value` (a safe integer) at `at`; returns the offset after it. */
function writeVarint(bytes: Buffer, at: number, value: number): number {
  if (!Number.isSafeInteger(value) || Math.abs(value) >= 2 ** 52)
    throw new RangeError(`a histogram count must be a whole number below 2^52, got ${value}`);
  let rest = value >= 0 ? value * 2 : -value * 2 - 1;
  let i = at;
  while (rest >= 0x80) {
    bytes[i++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  bytes[i++] = rest;
  return i;
}

/** Reads the varints of a blob in order. */
class VarintReader {
  readonly #bytes: Uint8Array;
  #at = 0;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  next(): number {
    const bytes = this.#bytes;
    let byte = bytes[this.#at++] as number;
    let rest = byte & 0x7f;
    let scale = 0x80;
    while (byte >= 0x80) {
      byte = bytes[this.#at++] as number;
      rest += (byte & 0x7f) * scale;
      scale *= 0x80;
    }
    return rest % 2 === 0 ? rest / 2 : -(rest + 1) / 2;
  }

  done(): boolean {
    return this.#at >= this.#bytes.length;
  }

  /** How many varints are left (each ends with a byte below 0x80). */
  remaining(): number {
    const bytes = this.#bytes;
    let n = 0;
    for (let i = this.#at; i < bytes.length; i++) if ((bytes[i] as number) < 0x80) n++;
    return n;
  }
}
