import { arrayDigest, decodeMsgpack, digestBytes, encodeMsgpack, isValueRef } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIfSafe, releaseEncoded } from '../values/safe-encoder.js';
import { snapshotTape } from '../values/snapshot.js';
import { EncodeTimeDedup } from './encode-time-dedup.js';
import { KnownValues } from './known-values.js';
import { RecordDeduper } from './record-deduper.js';
import { ValueMarkers } from './value-markers.js';

const deduper = (thresholdBytes: number, known = new KnownValues(1_000)) =>
  new RecordDeduper(new ValueMarkers(thresholdBytes, known));

/** What a server does with value items: verify, keep, and expand a record's markers (chains included). */
function serverSide() {
  const values = new Map<string, { prev?: string; items?: unknown[]; value?: unknown }>();
  const resolve = (digest: string): unknown => {
    const v = values.get(digest);
    if (v === undefined) throw new Error(`missing ${digest}`);
    if (v.items === undefined) return expand(v.value);
    return [...(v.prev === undefined ? [] : (resolve(v.prev) as unknown[])), ...v.items.map(expand)];
  };
  const expand = (value: unknown): unknown => {
    if (isValueRef(value)) return resolve(value.digest);
    if (Array.isArray(value)) return value.map(expand);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
    return value;
  };
  return {
    take(item: Uint8Array) {
      const v = decodeMsgpack(item) as {
        digest: string;
        bytes?: Uint8Array;
        prev?: string;
        items?: Uint8Array[];
      };
      if (v.bytes !== undefined) {
        expect(digestBytes(v.bytes)).toBe(v.digest);
        values.set(v.digest, { value: decodeMsgpack(v.bytes) });
      } else {
        expect(arrayDigest(v.prev, v.items!)).toBe(v.digest);
        values.set(v.digest, { prev: v.prev, items: v.items!.map((i) => decodeMsgpack(i)) });
      }
    },
    expand,
    values,
  };
}

const record = (inputs: Record<string, unknown>, output: unknown) => ({
  type: 'complete',
  id: 'x',
  inputs,
  output,
  summary: { n: 1 },
});

describe('RecordDeduper', () => {
  it('leaves a small record untouched without reading it', () => {
    expect(deduper(1_024).dedup(encodeMsgpack(record({ a: 'short' }, 1)))).toBeUndefined();
  });

  it('sends a growing history as its new items only, and it expands to the whole history', () => {
    const history = deduper(1_024);
    const server = serverSide();
    const messages: unknown[] = [{ role: 'system', content: 's'.repeat(2_000) }];
    for (let turn = 0; turn < 8; turn++) {
      messages.push({ role: 'user', content: `question ${turn} `.repeat(20) });
      const item = record(
        { messages: [...messages], turn },
        { role: 'assistant', content: `answer ${turn} `.repeat(200) },
      );
      const deduped = history.dedup(encodeMsgpack(item))!;
      for (const value of deduped.send) server.take(value.bytes);
      expect(server.expand(decodeMsgpack(deduped.bytes))).toEqual(item);
      if (turn > 3) {
        // The new user message and the chain node; the answer of last turn is known already.
        const chain = decodeMsgpack(
          deduped.send.find((v) => (decodeMsgpack(v.bytes) as { items?: unknown }).items)!.bytes,
        ) as { prev?: string; items: unknown[] };
        expect(chain.prev).toBeDefined();
        expect(chain.items).toHaveLength(2);
      }
      messages.push(item.output);
    }
  });

  it('gives the same digests for a record from either encoder', () => {
    const item = record(
      { doc: 'é'.repeat(30_000), list: [{ a: 'x'.repeat(100) }, { b: 'y'.repeat(100) }] },
      'z'.repeat(2_000),
    );
    const a = deduper(100).dedup(encodeMsgpack(item))!;
    const b = deduper(100).dedup(encodeIfSafe(item)!)!;
    expect(a.send.map((v) => v.digest)).toEqual(b.send.map((v) => v.digest));
  });

  it('round-trips any JSON-like record at any threshold', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.jsonValue(),
        fc.integer({ min: 1, max: 300 }),
        (inputs, output, threshold) => {
          const byBytes = deduper(threshold);
          const server = serverSide();
          const item = record(inputs, output);
          const bytes = encodeMsgpack(item);
          const deduped = byBytes.dedup(bytes);
          if (deduped === undefined) return;
          for (const value of deduped.send) server.take(value.bytes);
          expect(JSON.stringify(server.expand(decodeMsgpack(deduped.bytes)))).toBe(
            JSON.stringify(decodeMsgpack(bytes)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Encodes `item` with the safe encoder, deduplicated as it is written. */
function encodeDeduped(dedup: EncodeTimeDedup, item: unknown) {
  dedup.begin();
  const bytes = encodeIfSafe(item, undefined, Number.POSITIVE_INFINITY, dedup);
  if (bytes === undefined) {
    dedup.abort();
    return undefined;
  }
  return { bytes: Uint8Array.from(bytes), values: dedup.finish() };
}

describe('EncodeTimeDedup (the safe encoder replaces large values as it writes them)', () => {
  it('makes the same record and sends the same values as the byte-level deduper, at any threshold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 1, max: 300 }),
        (records, threshold) => {
          const inline = new EncodeTimeDedup(new ValueMarkers(threshold, new KnownValues(1_000)));
          const byBytes = deduper(threshold);
          const server = serverSide();
          for (const [inputs, output] of records) {
            const item = record(inputs, output);
            const encoded = encodeDeduped(inline, item);
            if (encoded === undefined) return; // not safe as it is (e.g. a `__proto__` key): the Sanitizer's path
            const whole = encodeIfSafe(item)!;
            const expected = byBytes.dedup(Uint8Array.from(whole));
            releaseEncoded(whole);
            expect(decodeMsgpack(encoded.bytes)).toEqual(decodeMsgpack(expected?.bytes ?? whole));
            expect(encoded.values?.send.map((v) => v.digest) ?? []).toEqual(
              expected?.send.map((v) => v.digest) ?? [],
            );
            for (const value of encoded.values?.send ?? []) server.take(value.bytes);
            expect(JSON.stringify(server.expand(decodeMsgpack(encoded.bytes)))).toBe(
              JSON.stringify(decodeMsgpack(whole)),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('replaces the same values when inputs and output are snapshot tapes, at any threshold (leaves near it included)', () => {
    const leaf = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.double({ noNaN: true }),
      fc.integer(),
      fc.boolean(),
    );
    const value = fc.oneof(leaf, fc.jsonValue(), fc.array(leaf), fc.dictionary(fc.string(), leaf));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.dictionary(fc.string(), value), value), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 400 }),
        (records, threshold) => {
          const inline = new EncodeTimeDedup(new ValueMarkers(threshold, new KnownValues(1_000)));
          const byBytes = deduper(threshold);
          for (const [inputs, output] of records) {
            const taped = record(snapshotTape(inputs, undefined, true) as never, snapshotTape(output));
            const encoded = encodeDeduped(inline, taped);
            if (encoded === undefined) return; // not safe as it is: the Sanitizer's path
            const whole = encodeIfSafe(record(inputs, output))!;
            const expected = byBytes.dedup(Uint8Array.from(whole));
            releaseEncoded(whole);
            expect(decodeMsgpack(encoded.bytes)).toEqual(decodeMsgpack(expected?.bytes ?? whole));
            expect(encoded.values?.send.map((v) => v.digest) ?? []).toEqual(
              expected?.send.map((v) => v.digest) ?? [],
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not write a large string it saw in an earlier record', () => {
    const inline = new EncodeTimeDedup(new ValueMarkers(1_024, new KnownValues(100)));
    const written: number[] = [];
    const counting = {
      thresholdBytes: inline.thresholdBytes,
      knownString: (s: string) => inline.knownString(s),
      written: (b: Uint8Array, start: number, end: number, s?: string) => {
        written.push(end - start);
        return inline.written(b, start, end, s);
      },
      checkpoint: () => inline.checkpoint(),
      since: (checkpoint: number) => inline.since(checkpoint),
      replay: (noted: readonly unknown[]) => inline.replay(noted),
    };
    const text = 'a long system prompt. '.repeat(200);
    for (const turn of [1, 2]) {
      inline.begin();
      // A new string with the same text each time, as a decoded response would be.
      const bytes = encodeIfSafe(
        record({ system: `${text}`.slice(0) }, `${text}${''}`),
        undefined,
        1e9,
        counting,
      );
      expect(bytes).toBeDefined();
      const values = inline.finish()!;
      expect(values.sources).toHaveLength(2);
      expect(values.send).toHaveLength(turn === 1 ? 1 : 0);
    }
    // Only the first record wrote the text (once as the input, then the output was known).
    expect(written).toEqual([text.length + 3]);
  });

  it('forgets the values of a record the encoder gave up on, so the next record sends them', () => {
    const known = new KnownValues(100);
    const inline = new EncodeTimeDedup(new ValueMarkers(100, known));
    const big = 'x'.repeat(500);
    // A bigint after the large value: the safe encoder gives up half-way.
    expect(encodeDeduped(inline, record({ a: big, b: 1n }, null))).toBeUndefined();
    expect(known.size).toBe(0);
    const next = encodeDeduped(inline, record({ a: big }, null))!;
    expect(next.values?.send).toHaveLength(1);
  });
});
