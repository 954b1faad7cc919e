import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../calls/call-record.js';
import { snapshotTape } from '../values/index.js';
import { SnapshotTape } from '../values/snapshot-tape.js';
import {
  intakeVerdict,
  MAX_SPILL_BACKLOG_BYTES,
  RECORD_OVERHEAD_BYTES,
  recordBytes,
  snapshotBytes,
} from './backpressure.js';

const state = { room: 1_000, moving: 0, waiting: 0, spillBacklog: 0, maxWaitingBytes: 10_000 };

describe('intakeVerdict', () => {
  it('moves a call on while the batcher has room for it and the calls already moving', () => {
    expect(intakeVerdict(400, state)).toBe('move');
    expect(intakeVerdict(400, { ...state, moving: 600 })).toBe('move');
  });

  it('holds a call (as its snapshot) when the batcher has no room for it', () => {
    expect(intakeVerdict(401, { ...state, moving: 600 })).toBe('hold');
    expect(intakeVerdict(1, { ...state, room: 0 })).toBe('hold');
  });

  it('moves one call larger than the room when nothing else is moving, so it is never held forever', () => {
    expect(intakeVerdict(5_000, { ...state, room: 10 })).toBe('move');
    expect(intakeVerdict(5_000, { ...state, room: 10, moving: 1 })).toBe('hold');
  });

  it('past maxWaitingBytes moves calls on (the batcher sends the excess to the outbox) as fast as the outbox takes them', () => {
    expect(intakeVerdict(400, { ...state, room: 0, waiting: 10_001 })).toBe('move');
    expect(
      intakeVerdict(400, { ...state, room: 0, waiting: 10_001, spillBacklog: MAX_SPILL_BACKLOG_BYTES }),
    ).toBe('hold');
    expect(
      intakeVerdict(400, {
        ...state,
        room: 0,
        waiting: 10_001,
        moving: MAX_SPILL_BACKLOG_BYTES / 2,
        spillBacklog: MAX_SPILL_BACKLOG_BYTES / 2,
      }),
    ).toBe('hold');
  });
});

describe('recordBytes', () => {
  it('counts the strings of a snapshot by length, without walking it again', () => {
    const text = 'x'.repeat(10_000);
    const tape = snapshotTape({ messages: [{ role: 'user', content: text }] });
    expect(SnapshotTape.is(tape)).toBe(true);
    expect(snapshotBytes(tape)).toBeGreaterThanOrEqual(
      10_000 + 'messages'.length + 'role'.length + 'user'.length + 'content'.length,
    );
    expect(snapshotBytes(tape)).toBeLessThan(10_000 + 200);
    expect(snapshotBytes(text)).toBe(10_000);
  });

  it('counts the inputs of a start record, the output of an end record and both of a complete one', () => {
    const call = {
      inputs: snapshotTape({ q: 'a'.repeat(1_000) }),
      output: 'b'.repeat(3_000),
    } as unknown as CallRecord;
    const inputs = snapshotBytes(call.inputs);
    expect(recordBytes(call, 'start')).toBe(RECORD_OVERHEAD_BYTES + inputs);
    expect(recordBytes(call, 'end')).toBe(RECORD_OVERHEAD_BYTES + 3_000);
    expect(recordBytes(call, 'complete')).toBe(RECORD_OVERHEAD_BYTES + inputs + 3_000);
  });
});
