import { describe, expect, it } from 'vitest';
import { admissionVerdict, BACKPRESSURE_FRACTION, roomBytes } from './queue-rules.js';

describe('roomBytes', () => {
  const small = { maxQueueBytes: 1_000, maxBatchBytes: 1_000, maxConcurrentBatches: 2 };
  const large = { maxQueueBytes: 64 << 20, maxBatchBytes: 1 << 20, maxConcurrentBatches: 2 };

  it('wants enough to keep every send slot busy and the next batch of each ready, no more', () => {
    expect(roomBytes(0, large)).toBe(5 << 20);
    expect(roomBytes(3 << 20, large)).toBe(2 << 20);
  });

  it('never wants more than the backpressure mark of maxQueueBytes', () => {
    expect(roomBytes(0, small)).toBe(1_000 * BACKPRESSURE_FRACTION);
    expect(roomBytes(700, small)).toBe(50);
  });

  it('is 0, never negative, at or past the mark', () => {
    expect(roomBytes(750, small)).toBe(0);
    expect(roomBytes(5_000, small)).toBe(0);
    expect(roomBytes(6 << 20, large)).toBe(0);
  });
});

describe('admissionVerdict', () => {
  it('queues a record while it fits under maxQueueBytes, above the backpressure mark too', () => {
    expect(admissionVerdict(100, 0, 1_000)).toBe('queue');
    expect(admissionVerdict(200, 800, 1_000)).toBe('queue');
  });

  it('spills a record that would take the queue past maxQueueBytes', () => {
    expect(admissionVerdict(201, 800, 1_000)).toBe('spill');
    expect(admissionVerdict(1_001, 0, 1_000)).toBe('spill');
  });
});
