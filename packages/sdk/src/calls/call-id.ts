import { randomFillSync } from 'node:crypto';

/** Random bytes for 512 ids, refilled when used up: one `randomFillSync` per 512 calls instead of one per 16. */
const POOL_IDS = 512;
const BYTES_PER_ID = 8;
const pool = Buffer.alloc(POOL_IDS * BYTES_PER_ID);
let poolAt = pool.length;

/** The two ASCII hex digits of each byte value, as one 16-bit pair (first digit in the low byte). */
const HEX_PAIRS = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  const hex = i.toString(16).padStart(2, '0');
  HEX_PAIRS[i] = hex.charCodeAt(0) | (hex.charCodeAt(1) << 8);
}

/** The id's 36 characters are written here, then read out as one string. */
const text = Buffer.alloc(36);
const DASH = 0x2d;

function writeHex(at: number, byte: number): void {
  const pair = HEX_PAIRS[byte & 0xff] as number;
  text[at] = pair & 0xff;
  text[at + 1] = pair >>> 8;
}

let lastMs = -1;
/** 12-bit sequence in `rand_a`, so ids made in the same millisecond still sort in creation order. */
let seq = 0;

/**
 * A new call id: a UUID version 7 (RFC 9562) — 48-bit Unix milliseconds,
 * a 12-bit sequence (method 1: fixed-length dedicated counter, seeded at
 * random each millisecond) and 62 random bits — so ids sort by creation
 * time, monotonically within this process. Made on the caller's turn, so it
 * is cheap: no allocation besides the string, random bytes drawn from a
 * pool (the `uuid` package's `v7()` cost about 2 µs a call, a fifth of the
 * tracing overhead outside the snapshot).
 *
 * `randomTail`: 32 random bits (from {@link newTraceBits}) to use as the
 * id's last 4 bytes, so a sampling decision made on them before the id
 * existed is the decision of this id.
 */
export function newCallId(randomTail?: number): string {
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    seq = nextRandomByte() | ((nextRandomByte() & 0x07) << 8); // < 0x800: room to count up
  } else {
    seq++;
    if (seq > 0xfff) {
      // The sequence ran out within one millisecond: borrow the next one (as RFC 9562 allows).
      lastMs++;
      seq = 0;
    }
    ms = lastMs;
  }
  if (poolAt + BYTES_PER_ID > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const r = poolAt;
  poolAt += BYTES_PER_ID;
  const high = Math.floor(ms / 0x1000000); // the top 24 of the 48 bits
  const low = ms % 0x1000000;
  // Written as ASCII bytes and read out once: concatenating 20 pieces built a
  // tree of intermediate strings (about 600 bytes of garbage per call).
  writeHex(0, high >>> 16);
  writeHex(2, high >>> 8);
  writeHex(4, high);
  writeHex(6, low >>> 16);
  text[8] = DASH;
  writeHex(9, low >>> 8);
  writeHex(11, low);
  text[13] = DASH;
  writeHex(14, 0x70 | (seq >>> 8));
  writeHex(16, seq);
  text[18] = DASH;
  writeHex(19, 0x80 | ((pool[r] as number) & 0x3f));
  writeHex(21, pool[r + 1] as number);
  text[23] = DASH;
  if (randomTail === undefined) {
    for (let k = 0; k < 6; k++) writeHex(24 + 2 * k, pool[r + 2 + k] as number);
  } else {
    writeHex(24, pool[r + 2] as number);
    writeHex(26, pool[r + 3] as number);
    for (let k = 0; k < 4; k++) writeHex(28 + 2 * k, randomTail >>> (24 - 8 * k));
  }
  return text.toString('latin1', 0, 36);
}

/**
 * A new id for a call inside the trace `traceId`: the trace id's first 8
 * bytes, then 8 random bytes (the call's W3C span id). Every call id of a
 * trace then shares its head, which is what lets a span's parent — a Weft
 * call or an OpenTelemetry span, in this process or another — be found from
 * the W3C ids alone (see `@weft/protocol`'s `callIdOfSpan`). Costs what
 * `newCallId` costs: the head is copied as bytes into the same buffer.
 */
export function newChildCallId(traceId: string): string {
  if (poolAt + BYTES_PER_ID > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const r = poolAt;
  poolAt += BYTES_PER_ID;
  // "xxxxxxxx-xxxx-xxxx": the trace id's first 8 bytes with their dashes.
  text.write(traceId, 0, TRACE_HEAD_CHARS, 'latin1');
  text[18] = DASH;
  writeHex(19, pool[r] as number);
  writeHex(21, pool[r + 1] as number);
  text[23] = DASH;
  for (let k = 0; k < 6; k++) writeHex(24 + 2 * k, pool[r + 2 + k] as number);
  return text.toString('latin1', 0, 36);
}

/** Characters of a UUID that hold its first 8 bytes ("xxxxxxxx-xxxx-xxxx"). */
const TRACE_HEAD_CHARS = 18;

/**
 * 32 random bits: the last 4 bytes of a root id still to be made. Head
 * sampling decides on them first, so a sampled-out root never builds an id
 * string (most of what such a call would cost).
 */
export function newTraceBits(): number {
  if (poolAt + 4 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const bits = pool.readUInt32BE(poolAt);
  poolAt += 4;
  return bits;
}

function nextRandomByte(): number {
  if (poolAt >= pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}
