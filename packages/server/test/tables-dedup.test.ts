import { digestValue, routes, tableDigest } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BodyFormat, get, post } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const rowsOf = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ tag, i, text: `row ${i}` }));
const withDigests = (rows: readonly unknown[]) =>
  rows.map((value) => ({ digest: digestValue(value), value }));

describe.each<BodyFormat>(['json', 'msgpack'])('row dedup routes (%s)', (format) => {
  const project = `dedup-${format}`;

  it('answers which row digests the project holds, in the order asked', async () => {
    const rows = rowsOf(`known-${format}`, 5);
    const digests = rows.map((r) => digestValue(r));
    const put = await post(
      server.url,
      routes.tableRowsPut(),
      { project, rows: withDigests(rows.slice(0, 3)) },
      { format },
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ stored: 3 });
    const again = await post(
      server.url,
      routes.tableRowsPut(),
      { project, rows: withDigests(rows.slice(1, 4)) },
      { format },
    );
    expect(again.body).toEqual({ stored: 1 });

    const asked = [digests[4], digests[2], digests[0], digests[3], digests[1]];
    const known = await post(server.url, routes.tableRowsKnown(), { project, digests: asked }, { format });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ known: [digests[2], digests[0], digests[3], digests[1]] });
  });

  it('makes a table from digests alone once its rows are stored, with the digest tableCreate would give', async () => {
    const rows = rowsOf(`table-${format}`, 40);
    const digests = rows.map((r) => digestValue(r));
    await post(server.url, routes.tableRowsPut(), { project, rows: withDigests(rows) }, { format });
    // Repeated rows keep their place in the order.
    const rowDigests = [...digests, digests[0] as string];
    const made = await post(
      server.url,
      routes.tableByDigests(),
      { project, rowDigests, digest: tableDigest(rowDigests) },
      { format },
    );
    expect(made.status).toBe(200);
    expect(made.body).toEqual({ digest: tableDigest(rowDigests), rowDigests, rowCount: 41 });
    const page = await get(server.url, `${routes.tableRows(project, made.body.digest)}?offset=38&limit=10`);
    expect(page.body.rows.map((r: { value: unknown }) => r.value)).toEqual([rows[38], rows[39], rows[0]]);
    const viaCreate = await post(
      server.url,
      routes.tableCreate(),
      { project, rows: [...rows, rows[0]] },
      { format },
    );
    expect(viaCreate.body.digest).toBe(made.body.digest);
  });

  it('takes the missing rows in the same request, next to rows already stored', async () => {
    const rows = rowsOf(`mixed-${format}`, 6);
    const digests = rows.map((r) => digestValue(r));
    await post(
      server.url,
      routes.tableRowsPut(),
      { project, rows: withDigests(rows.slice(0, 4)) },
      { format },
    );
    const made = await post(
      server.url,
      routes.tableByDigests(),
      { project, rowDigests: digests, rows: withDigests(rows.slice(4)) },
      { format },
    );
    expect(made.status).toBe(200);
    const page = await get(server.url, routes.tableRows(project, made.body.digest));
    expect(page.body.rows.map((r: { value: unknown }) => r.value)).toEqual(rows);
  });

  it('rejects a row whose digest is not its content, naming its index, and stores none of the request', async () => {
    const rows = withDigests(rowsOf(`bad-${format}`, 4));
    const bad = [...rows];
    bad[2] = { digest: digestValue('something else'), value: rows[2]?.value };
    const put = await post(server.url, routes.tableRowsPut(), { project, rows: bad }, { format });
    expect(put.status).toBe(400);
    expect(put.body.error).toMatchObject({ code: 'WEFT_DIGEST_MISMATCH', path: 'rows.2.digest' });
    const known = await post(
      server.url,
      routes.tableRowsKnown(),
      { project, digests: rows.map((r) => r.digest) },
      { format },
    );
    expect(known.body.known).toEqual([]);

    const byDigests = await post(
      server.url,
      routes.tableByDigests(),
      { project, rowDigests: rows.map((r) => r.digest), rows: bad },
      { format },
    );
    expect(byDigests.status).toBe(400);
    expect(byDigests.body.error).toMatchObject({ code: 'WEFT_DIGEST_MISMATCH', path: 'rows.2.digest' });
  });

  it('rejects a table naming a row the project does not hold, with the first missing index', async () => {
    const rows = rowsOf(`missing-${format}`, 5);
    const digests = rows.map((r) => digestValue(r));
    await post(
      server.url,
      routes.tableRowsPut(),
      { project, rows: withDigests([rows[0], rows[1], rows[3]]) },
      { format },
    );
    const made = await post(
      server.url,
      routes.tableByDigests(),
      { project, rowDigests: digests },
      { format },
    );
    expect(made.status).toBe(400);
    expect(made.body.error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'rowDigests.2', index: 2 });
    expect(made.body.error.message).toContain(digests[2]);
    expect((await get(server.url, routes.tableRows(project, tableDigest(digests)))).status).toBe(404);
  });

  it('rejects a table digest that is not the one of its row digests', async () => {
    const rows = rowsOf(`claimed-${format}`, 2);
    const made = await post(
      server.url,
      routes.tableByDigests(),
      {
        project,
        rowDigests: rows.map((r) => digestValue(r)),
        rows: withDigests(rows),
        digest: digestValue('x'),
      },
      { format },
    );
    expect(made.status).toBe(400);
    expect(made.body.error).toMatchObject({ code: 'WEFT_DIGEST_MISMATCH', path: 'digest' });
  });
});

describe('row dedup across projects', () => {
  it('never answers for, or builds tables from, another project’s rows', async () => {
    const rows = rowsOf('isolated', 3);
    const digests = rows.map((r) => digestValue(r));
    await post(server.url, routes.tableRowsPut(), { project: 'alpha', rows: withDigests(rows) });
    expect(
      (await post(server.url, routes.tableRowsKnown(), { project: 'alpha', digests })).body.known,
    ).toEqual(digests);
    expect(
      (await post(server.url, routes.tableRowsKnown(), { project: 'beta', digests })).body.known,
    ).toEqual([]);
    const inBeta = await post(server.url, routes.tableByDigests(), { project: 'beta', rowDigests: digests });
    expect(inBeta.status).toBe(400);
    expect(inBeta.body.error).toMatchObject({ path: 'rowDigests.0', index: 0 });
    // A table made by digests in alpha is not readable from beta either.
    const inAlpha = await post(server.url, routes.tableByDigests(), {
      project: 'alpha',
      rowDigests: digests,
    });
    expect(inAlpha.status).toBe(200);
    expect((await get(server.url, routes.tableRows('beta', inAlpha.body.digest))).status).toBe(404);
  });

  it('validates the request shapes, naming the field', async () => {
    const notDigest = await post(server.url, routes.tableRowsKnown(), {
      project: 'alpha',
      digests: ['nope'],
    });
    expect(notDigest.status).toBe(400);
    expect(notDigest.body.error.path).toBe('digests.0');
    const noValue = await post(server.url, routes.tableRowsPut(), {
      project: 'alpha',
      rows: [{ digest: digestValue(1) }],
    });
    expect(noValue.status).toBe(400);
    expect(noValue.body.error.path).toMatch(/^rows\.0/);
  });

  it('answers 100,000 digests in one request', async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ big: i }));
    await post(
      server.url,
      routes.tableRowsPut(),
      { project: 'bulk', rows: withDigests(rows) },
      { format: 'msgpack' },
    );
    const stored = rows.map((r) => digestValue(r));
    const digests = Array.from({ length: 100_000 }, (_, i) =>
      i % 50 === 0 ? stored[i / 50] : digestValue({ absent: i }),
    );
    const known = await post(
      server.url,
      routes.tableRowsKnown(),
      { project: 'bulk', digests },
      { format: 'msgpack' },
    );
    expect(known.status).toBe(200);
    expect(known.body.known).toEqual(stored);
  });
});
