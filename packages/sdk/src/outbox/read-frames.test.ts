import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboxFileHandle } from './outbox-file-system.js';
import { readFrames } from './read-frames.js';
import { encodeFrames, FRAME_HEADER_BYTES } from './record-frame.js';

/** A read-only handle over bytes in memory, so properties run thousands of cases quickly. */
function memoryHandle(bytes: Uint8Array): OutboxFileHandle {
  const refuse = () => Promise.reject(new Error('read-only'));
  return {
    read: async (buffer, offset, length, position) => {
      const slice = bytes.subarray(position, Math.min(bytes.byteLength, position + length));
      buffer.set(slice, offset);
      return { bytesRead: slice.byteLength };
    },
    write: refuse,
    truncate: refuse,
    sync: refuse,
    stat: async () => ({ size: bytes.byteLength, mtimeMs: 0 }),
    close: async () => undefined,
  };
}

async function readAll(bytes: Uint8Array, chunkBytes: number) {
  const payloads: Buffer[] = [];
  const end = await readFrames(
    memoryHandle(bytes),
    0,
    bytes.byteLength,
    (payload) => {
      payloads.push(Buffer.from(payload));
    },
    chunkBytes,
  );
  return { payloads, end };
}

/** Offset just past each frame. */
function frameEnds(records: readonly Uint8Array[]): number[] {
  let at = 0;
  return records.map((record) => (at += FRAME_HEADER_BYTES + record.byteLength));
}

const recordsArbitrary = fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 30 });
const chunkArbitrary = fc.integer({ min: 1, max: 300 });

/** Frame `[start, end)` of each record. */
function frameRanges(records: readonly Uint8Array[]): { start: number; end: number }[] {
  let at = 0;
  return records.map((record) => {
    const start = at;
    at += FRAME_HEADER_BYTES + record.byteLength;
    return { start, end: at };
  });
}

/** How bytes are damaged: overwritten with random bytes, with zeros, or one byte flipped. */
const damageArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('random' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 80 }) }),
  fc.record({ kind: fc.constant('zeros' as const), length: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('flip' as const), xor: fc.integer({ min: 1, max: 255 }) }),
);

type Damage = typeof damageArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** Applies `damage` at `position` (clipped to the buffer). */
function applyDamage(bytes: Buffer, position: number, damage: Damage): void {
  const length =
    damage.kind === 'random' ? damage.bytes.byteLength : damage.kind === 'zeros' ? damage.length : 1;
  const to = Math.min(bytes.byteLength, position + length);
  for (let i = position; i < to; i++) {
    bytes[i] =
      damage.kind === 'random'
        ? damage.bytes[i - position]!
        : damage.kind === 'zeros'
          ? 0
          : bytes[i]! ^ damage.xor;
  }
}

describe('readFrames', () => {
  it('reads back exactly what was framed, whatever the read chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(recordsArbitrary, chunkArbitrary, async (records, chunkBytes) => {
        const bytes = encodeFrames(records, 0, records.length);
        const { payloads, end } = await readAll(bytes, chunkBytes);
        expect(payloads).toEqual(records.map((record) => Buffer.from(record)));
        expect(end).toEqual({ kind: 'end', offset: bytes.byteLength, damaged: [] });
      }),
    );
  });

  it('a cut anywhere yields exactly the whole records before it, and the torn range after them', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArbitrary,
        chunkArbitrary,
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (records, chunkBytes, at) => {
          const bytes = encodeFrames(records, 0, records.length);
          const cut = Math.floor(at * bytes.byteLength);
          const { payloads, end } = await readAll(bytes.subarray(0, cut), chunkBytes);
          const whole = frameEnds(records).filter((frameEnd) => frameEnd <= cut);
          expect(payloads).toEqual(records.slice(0, whole.length).map((record) => Buffer.from(record)));
          const offset = whole.at(-1) ?? 0;
          expect(end).toEqual({
            kind: 'end',
            offset,
            damaged: offset === cut ? [] : [{ from: offset, to: cut }],
          });
        },
      ),
    );
  });

  // Issue 26 item 7: one damaged frame cost the rest of its segment (reading stopped at it).
  it('damage anywhere (random bytes, zeros, a flipped bit, length bytes included) costs only the records it overlaps', async () => {
    const nonEmpty = fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(
        nonEmpty,
        chunkArbitrary,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        damageArbitrary,
        async (records, chunkBytes, at, damage) => {
          const original = Buffer.from(encodeFrames(records, 0, records.length));
          const bytes = Buffer.from(original);
          applyDamage(bytes, Math.floor(at * bytes.byteLength), damage);
          const { payloads, end } = await readAll(bytes, chunkBytes);
          // A frame whose bytes the damage left as they were (zeros over zeros count as unchanged).
          const unchanged = records.filter((_, i) => {
            const { start, end: stop } = frameRanges(records)[i]!;
            return original.subarray(start, stop).equals(bytes.subarray(start, stop));
          });
          expect(payloads.map((payload) => Buffer.from(payload))).toEqual(
            unchanged.map((record) => Buffer.from(record)),
          );
          expect(end.kind).toBe('end');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('skips a damaged range and reports it; a garbage length never makes it read past the range', async () => {
    const records = Array.from({ length: 10 }, (_, i) => new Uint8Array(32).fill(i + 1));
    const bytes = Buffer.from(encodeFrames(records, 0, records.length));
    const frames = frameRanges(records);
    // Record 4's length bytes say 2 GiB.
    bytes.writeUInt32LE(0x8000_0000, frames[4]!.start);
    const { payloads, end } = await readAll(bytes, 64);
    expect(payloads.map((payload) => payload[0])).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10]);
    expect(end).toEqual({
      kind: 'end',
      offset: bytes.byteLength,
      damaged: [{ from: frames[4]!.start, to: frames[5]!.start }],
    });
  });
});
