import { decodeMsgpack } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EncodeTimeDedup } from '../dedup/encode-time-dedup.js';
import { KnownValues } from '../dedup/known-values.js';
import { ValueMarkers } from '../dedup/value-markers.js';
import { EncodedValue } from './encoded-value.js';
import { snapshotOutput } from './output-encoder.js';
import { encodeIfSafe, releaseEncoded } from './safe-encoder.js';
import type { SanitizeOptions } from './sanitize-options.js';
import type { SnapshotLimits } from './snapshot.js';
import { materialize } from './snapshot-tape.js';
import { snapshotTape } from './snapshot.js';

/** Long strings a few records share, so the hook finds some by value (or by identity) in a later record. */
const shared = ['a'.repeat(300), 'é'.repeat(120), 'shared text '.repeat(40), 'b'.repeat(1_100)];
const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('password', 'apiKey', 'note', 'token'));
const leaf = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom(...shared),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('v'), { maxLength: 5 }),
    fc.dictionary(key, tie('v'), { maxKeys: 5 }),
  ),
})).v;
const rules = fc.record({
  maxNodes: fc.option(fc.integer({ min: 2, max: 40 }), { nil: undefined }),
  maxDepth: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  maxStringLength: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
  redactKeys: fc.option(fc.constant(new Set(['note'])), { nil: undefined }),
});

const record = (output: unknown) => ({ type: 'end', id: 'x', output, summary: { n: 1 } });

/** A record as the pool encodes it, deduplicated as it is written; `undefined`: the Sanitizer's path. */
function encode(dedup: EncodeTimeDedup, output: unknown, options: SanitizeOptions) {
  dedup.begin();
  const bytes = encodeIfSafe(record(output), options, Number.POSITIVE_INFINITY, dedup);
  if (bytes === undefined) {
    dedup.abort();
    return undefined;
  }
  const copy = Uint8Array.from(bytes);
  releaseEncoded(bytes);
  return { bytes: copy, sent: dedup.finish()?.send.map((v) => v.digest) ?? [] };
}

describe('an output written on the caller’s turn', () => {
  it('makes the same record, and sends the same values, as its snapshot tape (any threshold, limits, redacted keys)', () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 400 }),
        rules,
        (outputs, threshold, limits) => {
          const base: SanitizeOptions = { ...limits };
          // The pool's rules for an epoch: the client's, with its hooks added.
          const pool: SanitizeOptions = { ...base, onObject: () => undefined };
          const snapshotLimits: SnapshotLimits = { maxNodes: limits.maxNodes, maxDepth: limits.maxDepth };
          const byTape = new EncodeTimeDedup(new ValueMarkers(threshold, new KnownValues(1_000)));
          const once = new EncodeTimeDedup(new ValueMarkers(threshold, new KnownValues(1_000)));
          for (const output of outputs) {
            const tape = snapshotTape(output, snapshotLimits);
            const written = snapshotOutput(output, snapshotLimits, {
              options: base,
              thresholdBytes: threshold,
            });
            expect(materialize(written)).toEqual(materialize(tape));
            const expected = encode(byTape, tape, pool);
            const actual = encode(once, written, pool);
            expect(actual?.bytes).toEqual(expected?.bytes);
            expect(actual?.sent).toEqual(expected?.sent);
            if (actual !== undefined) expect(decodeMsgpack(actual.bytes)).toBeDefined();
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is written once for a small plain output, and not for one the snapshot keeps by identity or redacts', () => {
    const options = { options: {}, thresholdBytes: 1_024 };
    const reply = { role: 'assistant', content: 'x'.repeat(1_500), usage: { input: 3, output: 4 } };
    const written = snapshotOutput(reply, {}, options);
    expect(written).toBeInstanceOf(EncodedValue);
    // The caller changing its object afterwards does not change what was recorded.
    reply.usage.input = 99;
    expect(materialize(written)).toEqual({ ...reply, usage: { input: 3, output: 4 } });
    expect(snapshotOutput({ password: 'p' }, {}, options)).not.toBeInstanceOf(EncodedValue);
    const published = { a: 1 };
    expect(snapshotOutput({ published }, { keep: (v) => v === published }, options)).not.toBeInstanceOf(
      EncodedValue,
    );
    expect(snapshotOutput({ big: 'x'.repeat(100_000) }, {}, options)).not.toBeInstanceOf(EncodedValue);
    expect(snapshotOutput({ n: 1 }, {}, undefined)).not.toBeInstanceOf(EncodedValue);
  });

  it('records the rest of the output when a getter throws (the snapshot’s marker), reading nothing twice into the record', () => {
    const output = {
      ok: 1,
      get bad(): number {
        throw new Error('no');
      },
    };
    const written = snapshotOutput(output, {}, { options: {}, thresholdBytes: 1_024 });
    expect(written).not.toBeInstanceOf(EncodedValue);
    expect((materialize(written) as { ok: number }).ok).toBe(1);
  });
});
