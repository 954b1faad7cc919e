import { digestValue, tableDigest } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { Dataset } from './dataset.js';
import { InvalidDatasetOptionsError, InvalidDatasetRowsError } from './errors/index.js';

describe('Dataset', () => {
  it('digests each row by content and the table from the row digests', async () => {
    const rows = [{ b: 1, a: 'x' }, { a: 'y' }];
    const ds = new Dataset({ name: 'tiny', rows });
    const digests = await ds.rowDigests();
    expect(digests).toEqual([digestValue({ a: 'x', b: 1 }), digestValue({ a: 'y' })]);
    expect(await ds.digest()).toBe(tableDigest(digests));
    expect(await new Dataset({ name: 'same', rows: [{ a: 'x', b: 1 }, { a: 'y' }] }).digest()).toBe(
      await ds.digest(),
    );
    expect(ds.length).toBe(2);
  });

  it('hashes a large dataset in slices, letting timers run in between', async () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ i }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const digests = await new Dataset({ name: 'big', rows }).rowDigests();
      expect(digests).toHaveLength(5_000);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it('rejects a bad name or rows with typed errors', () => {
    expect(() => new Dataset({ name: 'bad name', rows: [] })).toThrow(InvalidDatasetOptionsError);
    expect(() => new Dataset({ name: 'ok', rows: [{ a: 1 }, 'x'] as never })).toThrow(
      InvalidDatasetRowsError,
    );
  });

  it('loads rows from a source', async () => {
    const ds = await Dataset.load('csv', { text: 'q,expected\n1,2\n', format: 'csv' });
    expect(ds.rows).toEqual([{ q: '1', expected: '2' }]);
  });

  it('refuses to publish without a client', async () => {
    await expect(new Dataset({ name: 'x', rows: [] }).publish()).rejects.toMatchObject({
      code: 'WEFT_NOT_INITIALIZED',
    });
  });
});
