import { digestBytes, digestValue, routes, tableDigest } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, send } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const project = 'tables';
const rowsOf = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({ question: `q${from + i}`, answer: from + i }));

describe('tables', () => {
  it('creates a table whose digests derive from its rows, and pages through them', async () => {
    const rows = rowsOf(0, 250);
    const rowDigests = rows.map((r) => digestValue(r));
    const created = await post(server.url, routes.tableCreate(), {
      project,
      rows,
      digest: tableDigest(rowDigests),
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ digest: tableDigest(rowDigests), rowDigests, rowCount: 250 });

    const seen: unknown[] = [];
    for (let offset = 0; offset < 250; offset += 60) {
      const page = await get(
        server.url,
        `${routes.tableRows(project, created.body.digest)}?offset=${offset}&limit=60`,
      );
      expect(page.body).toMatchObject({ digest: created.body.digest, rowCount: 250, offset });
      for (const row of page.body.rows) {
        expect(row.digest).toBe(digestValue(row.value));
        seen.push(row.value);
      }
    }
    expect(seen).toEqual(rows);
  });

  it('appends rows as a new table, leaving the base unchanged, and stores shared rows once', async () => {
    const base = await post(server.url, routes.tableCreate(), { project, rows: rowsOf(0, 3) });
    const appended = await post(
      server.url,
      routes.tableAppend(),
      { project, base: base.body.digest, rows: rowsOf(3, 5) },
      { format: 'msgpack' },
    );
    expect(appended.body.rowCount).toBe(5);
    expect(appended.body.digest).toBe(tableDigest(rowsOf(0, 5).map((r) => digestValue(r))));
    // Same rows as creating the longer table directly: same digest, a no-op.
    const direct = await post(server.url, routes.tableCreate(), { project, rows: rowsOf(0, 5) });
    expect(direct.body.digest).toBe(appended.body.digest);
    expect((await get(server.url, routes.tableRows(project, base.body.digest))).body.rowCount).toBe(3);
    const all = await get(server.url, routes.tableRows(project, appended.body.digest));
    expect(all.body.rows.map((r: { value: unknown }) => r.value)).toEqual(rowsOf(0, 5));
  });

  it('keeps duplicate rows in order', async () => {
    const rows = [{ a: 1 }, { a: 1 }, { b: 2 }];
    const created = await post(server.url, routes.tableCreate(), { project, rows });
    const page = await get(server.url, routes.tableRows(project, created.body.digest));
    expect(page.body.rows.map((r: { value: unknown }) => r.value)).toEqual(rows);
  });

  it('creates an empty table', async () => {
    const created = await post(server.url, routes.tableCreate(), { project, rows: [] });
    expect(created.body).toEqual({ digest: tableDigest([]), rowDigests: [], rowCount: 0 });
    expect((await get(server.url, routes.tableRows(project, created.body.digest))).body.rows).toEqual([]);
  });

  it('rejects a mismatched table digest, an unknown base, a bad page and an unknown table', async () => {
    const mismatch = await post(server.url, routes.tableCreate(), {
      project,
      rows: rowsOf(0, 2),
      digest: digestValue('x'),
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('WEFT_DIGEST_MISMATCH');
    const unknownBase = await post(server.url, routes.tableAppend(), {
      project,
      base: digestValue('nope'),
      rows: [1],
    });
    expect(unknownBase.status).toBe(404);
    const real = await post(server.url, routes.tableCreate(), { project, rows: [1] });
    const badPage = await get(server.url, `${routes.tableRows(project, real.body.digest)}?limit=0`);
    expect(badPage.status).toBe(400);
    expect(badPage.body.error.path).toBe('limit');
    expect((await get(server.url, routes.tableRows(project, digestValue('ghost')))).status).toBe(404);
    const notCanonical = await post(
      server.url,
      routes.tableCreate(),
      { project, rows: [1, { when: new Date(0) }] },
      { format: 'msgpack' },
    );
    expect(notCanonical.status).toBe(400);
    expect(notCanonical.body.error).toMatchObject({ path: 'rows.1.when' });
  });
});

describe('files', () => {
  it('stores raw bytes under their digest and returns them unchanged', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 31) % 256));
    const created = await send(server.url, routes.fileCreate(project), {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(created.body).toEqual({ digest: digestBytes(bytes), size: bytes.byteLength });
    const again = await send(server.url, routes.fileCreate(project), {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(again.body.digest).toBe(created.body.digest);

    const response = await fetch(new URL(routes.fileRead(project, created.body.digest), server.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers 404 JSON for an unknown file and keeps projects apart', async () => {
    const created = await send(server.url, routes.fileCreate(project), {
      method: 'POST',
      body: Buffer.from('hello'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    const elsewhere = await get(server.url, routes.fileRead('other', created.body.digest));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('WEFT_NOT_FOUND');
  });

  it('rejects a file sent as JSON', async () => {
    const reply = await post(server.url, routes.fileCreate(project), { bytes: 'hello' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('WEFT_INVALID_REQUEST');
  });
});
