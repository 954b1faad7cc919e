import { encodeMsgpack } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import type { StoredValue } from '../../src/storage/index.js';
import { useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract for what is stored once per (project, digest):
 * deduplicated call values, dataset tables and their rows, files.
 */
const store = useConformanceStore();
const digest = (c: string) => c.repeat(43);

function value(c: string, content: unknown, prev?: string): StoredValue {
  return { digest: digest(c), isArray: prev !== undefined, prev, bytes: encodeMsgpack(content) };
}

describe(`storage contract (${store.engine}): call values`, () => {
  it('stores a value once per digest, counts only new ones, and reads it back exactly', async () => {
    const project = store.project();
    const a = value('a', { text: 'long prompt' });
    const b = value('b', ['more'], digest('a'));
    expect(await store.storage.putValues(project, [a, a])).toEqual({ stored: 1 });
    expect(await store.storage.putValues(project, [a, b])).toEqual({ stored: 1 });
    const read = await store.storage.readValues(project, [digest('a'), digest('b'), digest('c')]);
    expect([...read.keys()].sort()).toEqual([digest('a'), digest('b')]);
    const readA = read.get(digest('a'));
    expect(readA && { ...readA, bytes: [...readA.bytes] }).toEqual({ ...a, bytes: [...a.bytes] });
    expect(read.get(digest('b'))).toMatchObject({ isArray: true, prev: digest('a') });
    expect((await store.storage.knownValues(project, [digest('c'), digest('b')])).sort()).toEqual([
      digest('b'),
    ]);
  });

  it("never answers another project's values", async () => {
    const project = store.project();
    await store.storage.putValues(project, [value('a', 1)]);
    const other = store.project();
    expect((await store.storage.readValues(other, [digest('a')])).size).toBe(0);
    expect(await store.storage.knownValues(other, [digest('a')])).toEqual([]);
  });
});

describe(`storage contract (${store.engine}): tables`, () => {
  const rows = ['r', 's', 't'].map((c, i) => ({ digest: digest(c), canonicalValue: JSON.stringify({ i }) }));

  it('stores a table once and reads its rows in order, by offset and limit', async () => {
    const project = store.project();
    const rowDigests = [digest('r'), digest('s'), digest('r'), digest('t')];
    const put = { project, digest: digest('T'), rowDigests, rows };
    expect(await store.storage.putTable(put)).toEqual({ digest: digest('T'), rowDigests, rowCount: 4 });
    expect(await store.storage.putTable(put)).toEqual({ digest: digest('T'), rowDigests, rowCount: 4 });
    expect(await store.storage.tableRowDigests(project, digest('T'))).toEqual(rowDigests);
    expect(await store.storage.readTableRows(project, digest('T'), 1, 2)).toEqual({
      digest: digest('T'),
      rowCount: 4,
      offset: 1,
      rows: [
        { digest: digest('s'), value: { i: 1 } },
        { digest: digest('r'), value: { i: 0 } },
      ],
    });
    expect(await store.storage.readTableRows(project, digest('U'), 0, 10)).toBeUndefined();
    expect(await store.storage.tableRowDigests(project, digest('U'))).toBeUndefined();
    expect(await store.storage.readTableRows(store.project(), digest('T'), 0, 10)).toBeUndefined();
  });

  it('stores rows once per project and tells which are known, in the order asked', async () => {
    const project = store.project();
    expect(await store.storage.putTableRows(project, [rows[0], rows[0], rows[1]] as never)).toEqual({
      stored: 2,
    });
    expect(await store.storage.putTableRows(project, rows)).toEqual({ stored: 1 });
    expect(await store.storage.knownTableRows(project, [digest('x'), digest('t'), digest('r')])).toEqual([
      digest('t'),
      digest('r'),
    ]);
    expect(await store.storage.knownTableRows(store.project(), [digest('r')])).toEqual([]);
  });

  it('leaves out a row whose value is not stored', async () => {
    const project = store.project();
    const rowDigests = [digest('r'), digest('m'), digest('s')];
    await store.storage.putTable({ project, digest: digest('T'), rowDigests, rows });
    const read = await store.storage.readTableRows(project, digest('T'), 0, 10);
    expect(read?.rowCount).toBe(3);
    expect(read?.rows.map((r) => r.digest)).toEqual([digest('r'), digest('s')]);
  });
});

describe(`storage contract (${store.engine}): files`, () => {
  it('stores bytes once per digest and reads them back exactly', async () => {
    const project = store.project();
    const bytes = new Uint8Array([0, 1, 2, 255, 10, 13]);
    expect(await store.storage.putFile(project, digest('f'), bytes)).toEqual({ created: true });
    expect(await store.storage.putFile(project, digest('f'), new Uint8Array([9]))).toEqual({
      created: false,
    });
    expect([...((await store.storage.readFile(project, digest('f'))) ?? [])]).toEqual([...bytes]);
    expect(await store.storage.readFile(project, digest('g'))).toBeUndefined();
    expect(await store.storage.readFile(store.project(), digest('f'))).toBeUndefined();
  });
});
