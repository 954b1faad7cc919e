import type { Outbox, ReplayResult } from '../../../src/outbox/outbox.js';

/**
 * Record number `n`: its number, then `padBytes` bytes derived from it, so a
 * replayed record can be checked whole (not just its number).
 */
export function record(n: number, padBytes = 24): Uint8Array {
  const bytes = Buffer.alloc(8 + padBytes);
  bytes.writeUInt32LE(n, 0);
  bytes.writeUInt32LE(padBytes, 4);
  for (let i = 0; i < padBytes; i++) bytes[8 + i] = (n * 31 + i) & 0xff;
  return bytes;
}

/** The number of `bytes` when it is exactly what {@link record} produced, else throws. */
export function recordNumber(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = buffer.readUInt32LE(0);
  const padBytes = buffer.readUInt32LE(4);
  if (!buffer.equals(record(n, padBytes))) throw new Error(`record ${n} is not intact`);
  return n;
}

/** Records `[from, to)` as one batch. */
export function records(from: number, to: number, padBytes?: number): Uint8Array[] {
  return Array.from({ length: to - from }, (_, i) => record(from + i, padBytes));
}

/** Replays everything with a `send` that acknowledges all; returns the record numbers in order. */
export async function replayAll(
  outbox: Outbox,
  batchRecords?: number,
): Promise<{ numbers: number[]; result: ReplayResult; batches: number }> {
  const numbers: number[] = [];
  let batches = 0;
  const result = await outbox.replay(
    async (batch) => {
      batches++;
      for (const bytes of batch) numbers.push(recordNumber(bytes));
      return true;
    },
    batchRecords === undefined ? {} : { batchRecords },
  );
  return { numbers, result, batches };
}

/** `[from, to)` as an array of numbers. */
export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
