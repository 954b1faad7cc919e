import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../calls/index.js';
import { arenaOf } from '../memory/arena.js';
import { EncodedValue } from '../values/encoded-value.js';
import { snapshotOutput } from '../values/index.js';
import { Sampler } from './sampler.js';

/** A small output written on the caller's turn: it holds a slice of an arena until given back. */
function writtenOutput(n: number): EncodedValue {
  const written = snapshotOutput(
    { reply: `answer ${n}`, tokens: n },
    {},
    { options: {}, thresholdBytes: 1_024 },
  );
  if (!(written instanceof EncodedValue)) throw new Error('expected an output written once');
  return written;
}

function call(id: string, parentId: string | null, output: EncodedValue): CallRecord {
  return {
    id,
    traceId: 'trace',
    parentId,
    opName: 'op',
    failed: false,
    summary: {},
    output,
  } as unknown as CallRecord;
}

describe('Sampler', () => {
  it.each([
    ['when its root ends with no tail rule matched', 10],
    ['when the trace passes maxCallsPerTrace, and for its calls that end after', 2],
  ])('gives back the output bytes of a dropped trace’s calls %s', (_, maxCallsPerTrace) => {
    const sampler = new Sampler(0, { errors: true, maxCallsPerTrace });
    const held = sampler.hold();
    if (held === undefined) throw new Error('a tail rule holds the trace');
    const outputs = [0, 1, 2].map(writtenOutput);
    const arena = arenaOf((outputs[0] as EncodedValue).bytes);
    const liveBefore = arena?.live ?? 0;
    const root = call('root', null, outputs[0] as EncodedValue);
    const children = [
      call('a', 'root', outputs[1] as EncodedValue),
      call('b', 'root', outputs[2] as EncodedValue),
    ];
    sampler.started(held, root);
    for (const child of children) sampler.started(held, child);
    for (const child of children) expect(sampler.finished(held, child)).toEqual([]);
    expect(sampler.finished(held, root)).toEqual([]);

    expect(arena).toBeDefined();
    expect(arena?.live).toBe(liveBefore - 3);
    for (const dropped of [root, ...children]) expect(dropped.output).toBeUndefined();
    expect(sampler.stats.sampledOutCalls).toBe(3);
  });

  it('keeps the outputs of a trace a tail rule keeps, for the pipeline to write', () => {
    const sampler = new Sampler(0, { errors: true });
    const held = sampler.hold();
    if (held === undefined) throw new Error('a tail rule holds the trace');
    const output = writtenOutput(7);
    const arena = arenaOf(output.bytes);
    const liveBefore = arena?.live ?? 0;
    const root = call('root', null, output);
    root.failed = true;
    sampler.started(held, root);
    expect(sampler.finished(held, root)).toEqual([root]);
    expect(root.output).toBe(output);
    expect(arena?.live).toBe(liveBefore);
  });
});
