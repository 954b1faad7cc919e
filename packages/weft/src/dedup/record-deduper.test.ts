import { arrayDigest, decodeMsgpack, digestBytes, encodeMsgpack, isValueRef } from '@weft/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIfSafe } from '../values/safe-encoder.js';
import { KnownValues } from './known-values.js';
import { RecordDeduper } from './record-deduper.js';

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
    const deduper = new RecordDeduper({ thresholdBytes: 1_024, known: new KnownValues(100) });
    expect(deduper.dedup(encodeMsgpack(record({ a: 'short' }, 1)))).toBeUndefined();
  });

  it('sends a growing history as its new items only, and it expands to the whole history', () => {
    const deduper = new RecordDeduper({ thresholdBytes: 1_024, known: new KnownValues(100) });
    const server = serverSide();
    const messages: unknown[] = [{ role: 'system', content: 's'.repeat(2_000) }];
    for (let turn = 0; turn < 8; turn++) {
      messages.push({ role: 'user', content: `question ${turn} `.repeat(20) });
      const item = record(
        { messages: [...messages], turn },
        { role: 'assistant', content: `answer ${turn} `.repeat(200) },
      );
      const deduped = deduper.dedup(encodeMsgpack(item))!;
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
    const a = new RecordDeduper({ thresholdBytes: 100, known: new KnownValues(100) }).dedup(
      encodeMsgpack(item),
    )!;
    const b = new RecordDeduper({ thresholdBytes: 100, known: new KnownValues(100) }).dedup(
      encodeIfSafe(item)!,
    )!;
    expect(a.send.map((v) => v.digest)).toEqual(b.send.map((v) => v.digest));
  });

  it('round-trips any JSON-like record at any threshold', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.jsonValue(),
        fc.integer({ min: 1, max: 300 }),
        (inputs, output, threshold) => {
          const deduper = new RecordDeduper({ thresholdBytes: threshold, known: new KnownValues(1_000) });
          const server = serverSide();
          const item = record(inputs, output);
          const bytes = encodeMsgpack(item);
          const deduped = deduper.dedup(bytes);
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
