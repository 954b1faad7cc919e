import { describe, expect, it } from 'vitest';
import { admissionVerdict, BACKPRESSURE_FRACTION, roomBytes } from './queue-rules.js';

describe('roomBytes', () => {
  it('offers the bytes up to the backpressure mark, below the hard bound', () => {
    expect(roomBytes(0, 1_000)).toBe(1_000 * BACKPRESSURE_FRACTION);
    expect(roomBytes(700, 1_000)).toBe(50);
  });

  it('is 0, never negative, at or past the mark', () => {
    expect(roomBytes(750, 1_000)).toBe(0);
    expect(roomBytes(5_000, 1_000)).toBe(0);
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
