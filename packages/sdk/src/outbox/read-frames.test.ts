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

describe('readFrames', () => {
  it('reads back exactly what was framed, whatever the read chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(recordsArbitrary, chunkArbitrary, async (records, chunkBytes) => {
        const bytes = encodeFrames(records, 0, records.length);
        const { payloads, end } = await readAll(bytes, chunkBytes);
        expect(payloads).toEqual(records.map((record) => Buffer.from(record)));
        expect(end).toEqual({ kind: 'end', offset: bytes.byteLength });
      }),
    );
  });

  it('a cut anywhere yields exactly the whole records before it, and the offset to truncate at', async () => {
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
          expect(end.offset).toBe(whole.at(-1) ?? 0);
          expect(end.kind).toBe(end.offset === cut ? 'end' : 'torn');
        },
      ),
    );
  });

  it('never returns a corrupt record: a flipped byte stops reading at the frame it hit, or before', async () => {
    const nonEmpty = fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(
        nonEmpty,
        chunkArbitrary,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 255 }),
        async (records, chunkBytes, at, xor) => {
          const bytes = Buffer.from(encodeFrames(records, 0, records.length));
          const position = Math.floor(at * bytes.byteLength);
          bytes[position]! ^= xor;
          const { payloads, end } = await readAll(bytes, chunkBytes);
          const hitFrame = frameEnds(records).findIndex((frameEnd) => position < frameEnd);
          expect(payloads.length).toBeLessThanOrEqual(hitFrame);
          expect(payloads).toEqual(records.slice(0, payloads.length).map((record) => Buffer.from(record)));
          expect(end.kind).not.toBe('end');
        },
      ),
    );
  });
});
