import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchFill, batchesOf } from './batch-fill.js';

const sum = (sizes: readonly number[]) => sizes.reduce((a, b) => a + b, 0);

describe('batchesOf', () => {
  it('cuts by count and by bytes, and sends an item larger than the byte bound alone', () => {
    const batches = [
      ...batchesOf([300, 300, 300, 900, 200, 2_000, 1], { maxItems: 3, maxBytes: 1_000 }, (n) => n),
    ];
    expect(batches).toEqual([[300, 300, 300], [900], [200], [2_000], [1]]);
  });

  it('yields nothing for no items', () => {
    expect([...batchesOf([], { maxItems: 2, maxBytes: 10 }, () => 1)]).toEqual([]);
  });

  it('as a property: keeps order, respects both bounds, and each batch is as long as the bounds allow', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 2_000 }),
        (sizes, maxItems, maxBytes) => {
          const batches = [...batchesOf(sizes, { maxItems, maxBytes }, (n) => n)];
          expect(batches.flat()).toEqual(sizes);
          for (const [i, batch] of batches.entries()) {
            expect(batch.length).toBeGreaterThan(0);
            expect(batch.length).toBeLessThanOrEqual(maxItems);
            if (batch.length > 1) expect(sum(batch)).toBeLessThanOrEqual(maxBytes);
            const next = batches[i + 1]?.[0];
            if (next !== undefined)
              expect(batch.length === maxItems || sum(batch) + next > maxBytes).toBe(true);
          }
        },
      ),
    );
  });
});

describe('BatchFill', () => {
  it('is full at the item bound and takes any first item', () => {
    const fill = new BatchFill({ maxItems: 2, maxBytes: 10 });
    expect(fill.fits(50)).toBe(true);
    fill.add(5);
    expect(fill.fits(5)).toBe(true);
    expect(fill.fits(6)).toBe(false);
    fill.add(5);
    expect(fill.full).toBe(true);
    expect(fill.fits(0)).toBe(false);
    fill.reset();
    expect({ items: fill.items, bytes: fill.bytes, full: fill.full }).toEqual({
      items: 0,
      bytes: 0,
      full: false,
    });
  });
});
