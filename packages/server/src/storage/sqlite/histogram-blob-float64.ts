import { addToBin, type LogHistogram, ZERO_BIN } from '../rollup/index.js';
import { binRun } from './histogram-blob.js';

/*
 * The stored form of rollup histograms between migrations 11 and 12: a BLOB
 * of little-endian float64s, `[zero, first, c₀, c₁, …]` (the count of
 * `ZERO_BIN`, the first bin with a count, then the counts of bins first,
 * first + 1, …). Kept only for the migrations: 11 writes it from the JSON
 * bin lists before it, 12 reads it to write the varint form
 * (histogram-blob.ts) that replaced it.
 */

const WIDTH = 8;
const HEADER = 2;

/** The float64 form of a histogram kept as JSON `[[bin, count], …]` (before migration 11). */
export function float64BlobOfJson(text: string | null): Buffer | null {
  if (text === null || text === '') return null;
  const histogram: LogHistogram = new Map();
  for (const [bin, count] of JSON.parse(text) as [number, number][]) addToBin(histogram, bin, count);
  if (histogram.size === 0) return null;
  const { first, span } = binRun(histogram);
  const blob = Buffer.alloc((HEADER + span) * WIDTH);
  blob.writeDoubleLE(histogram.get(ZERO_BIN) ?? 0, 0);
  blob.writeDoubleLE(first, WIDTH);
  for (const [bin, count] of histogram) {
    if (bin !== ZERO_BIN) blob.writeDoubleLE(count, (HEADER + bin - first) * WIDTH);
  }
  return blob;
}

/** Reads the float64 form back; `null` is an empty histogram. */
export function histogramOfFloat64Blob(blob: Uint8Array | null): LogHistogram {
  const histogram: LogHistogram = new Map();
  if (blob === null) return histogram;
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
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
