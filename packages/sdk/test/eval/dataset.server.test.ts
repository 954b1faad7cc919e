import { routes } from '@weft/protocol';
import { afterEach, expect, it } from 'vitest';
import { init } from '../../src/client/init.js';
import { Dataset, openDataset } from '../../src/datasets/index.js';
import { resetWeft } from '../../src/testing/index.js';
import { startTestServer } from '@weft/test-server';
import { type LoggedRequest, startRequestLogProxy } from './fixtures/request-log-proxy.js';

afterEach(async () => {
  await resetWeft({ timeoutMs: 5_000 });
});

const TABLE_WRITES = new Set([
  routes.tableCreate(),
  routes.tableAppend(),
  routes.tableRowsPut(),
  routes.tableRowsKnown(),
  routes.tableByDigests(),
]);

/** A real server behind a pass-through proxy that logs every request and keeps the table-write bodies. */
async function setup() {
  const server = await startTestServer();
  const proxy = await startRequestLogProxy(server.url, {
    keepBody: (method, path) => method === 'POST' && TABLE_WRITES.has(path),
  });
  const { requests } = proxy;
  const client = init({ project: 'datasets', url: proxy.url, outbox: false });
  /** Row contents carried by the requests from `from` on: rows of `rows` uploads and of `by-digests`. */
  const uploaded = (from = 0) =>
    requests
      .slice(from)
      .filter((r) => r.path === routes.tableRowsPut() || r.path === routes.tableByDigests())
      .flatMap((r) => (bodyOf(r).rows ?? []) as { digest: string; value: unknown }[]);
  const tableWrites = (from = 0) =>
    requests.slice(from).filter((r) => r.method === 'POST' && TABLE_WRITES.has(r.path));
  return { server, proxy, client, requests, uploaded, tableWrites };
}

function bodyOf(request: LoggedRequest): { rows?: unknown[]; rowDigests?: string[]; digests?: string[] } {
  if (request.body === undefined) throw new Error(`no body kept for ${request.method} ${request.path}`);
  return JSON.parse(request.body.toString('utf8'));
}

const makeRows = (n: number, tag = 'v1') =>
  Array.from({ length: n }, (_, i) => ({ i, text: `row ${i} ${tag}` }));

it('publishes 2,500 rows in chunks; re-publishing uploads nothing; one changed row uploads one row; appended rows upload alone', async () => {
  const { proxy, client, requests, uploaded, tableWrites } = await setup();
  try {
    const rows = makeRows(2_500);
    const first = await new Dataset({ name: 'corpus', rows }).publish({ client, chunkRows: 1_000 });
    expect(first.uploadedRows).toBe(2_500);
    expect(uploaded().map((r) => r.value)).toEqual(rows);
    expect(tableWrites().map((r) => r.path)).toEqual([
      routes.tableRowsKnown(),
      routes.tableRowsPut(),
      routes.tableRowsPut(),
      routes.tableRowsPut(),
      routes.tableByDigests(),
    ]);
    expect(first.table).toMatch(/^weft:\/\/\/datasets\/table\/[A-Za-z0-9_-]{43}$/);
    expect(await client.get(first.ref)).toEqual({
      rows: first.table,
      rowCount: 2_500,
      columns: ['i', 'text'],
    });

    // Unchanged: one GET finds the table; no table write at all, no row sent.
    let mark = requests.length;
    const again = await new Dataset({ name: 'corpus', rows: makeRows(2_500) }).publish({
      client,
      chunkRows: 1_000,
    });
    expect(again).toMatchObject({ table: first.table, uploadedRows: 0, uploadRequests: 1 });
    expect(tableWrites(mark)).toEqual([]);
    expect(requests.slice(mark).filter((r) => r.path.startsWith('/v1/tables'))).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: routes.tableRows('datasets', first.table.split('/').pop() ?? ''),
      }),
    ]);

    // One row changed: exactly that row travels; the table is made from digests.
    mark = requests.length;
    const edited = [...rows];
    edited[1_500] = { i: 1_500, text: 'changed' };
    const changed = await new Dataset({ name: 'corpus', rows: edited }).publish({ client, chunkRows: 1_000 });
    expect(changed.uploadedRows).toBe(1);
    expect(uploaded(mark).map((r) => r.value)).toEqual([{ i: 1_500, text: 'changed' }]);
    expect(tableWrites(mark).map((r) => r.path)).toEqual([
      routes.tableRowsKnown(),
      routes.tableRowsPut(),
      routes.tableByDigests(),
    ]);
    const byDigests = tableWrites(mark).at(-1) as LoggedRequest;
    expect(bodyOf(byDigests).rowDigests).toEqual(await new Dataset({ name: 'x', rows: edited }).rowDigests());
    const view = await openDataset(changed.table, { client });
    expect((await view.row(1_500)).value).toEqual({ i: 1_500, text: 'changed' });
    expect((await view.row(1_499)).value).toEqual(rows[1_499]);
    await view.close();

    // Appended rows: only they travel.
    mark = requests.length;
    const grown = [...edited, ...makeRows(3_200).slice(2_500)];
    const appended = await new Dataset({ name: 'corpus', rows: grown }).publish({ client, chunkRows: 1_000 });
    expect(appended.uploadedRows).toBe(700);
    expect(uploaded(mark).map((r) => r.value)).toEqual(grown.slice(2_500));
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
  }
});

it('sends a row repeated in the dataset once, and keeps the repeats in order', async () => {
  const { proxy, client, uploaded } = await setup();
  try {
    const rows = Array.from({ length: 300 }, (_, i) => ({ label: i % 3 === 0 ? 'yes' : 'no' }));
    const published = await new Dataset({ name: 'repeats', rows }).publish({ client });
    expect(published.uploadedRows).toBe(2);
    expect(uploaded()).toHaveLength(2);
    const view = await openDataset(published.ref.uri, { client, pageRows: 100 });
    const seen: unknown[] = [];
    for await (const row of view) seen.push(row.value);
    expect(seen).toEqual(rows);
    await view.close();
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
  }
});

it('publishes an empty dataset as an empty table, and re-publishes it with one GET', async () => {
  const { proxy, client, requests, tableWrites } = await setup();
  try {
    const first = await new Dataset({ name: 'empty', rows: [] }).publish({ client });
    expect(first).toMatchObject({ rowCount: 0, uploadedRows: 0 });
    expect(tableWrites().map((r) => r.path)).toEqual([routes.tableByDigests()]);
    const mark = requests.length;
    const again = await new Dataset({ name: 'empty', rows: [] }).publish({ client });
    expect(again).toMatchObject({ table: first.table, uploadedRows: 0, uploadRequests: 1 });
    expect(tableWrites(mark)).toEqual([]);
    const view = await openDataset(first.table, { client });
    expect(view.length).toBe(0);
    await view.close();
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
  }
});

it('cuts uploads by bytes as well as rows: no request carries more than chunkBytes of rows', async () => {
  const { proxy, client, tableWrites } = await setup();
  try {
    // ≈ 2 KB rows, 64 KiB chunks: about 30 rows per request, far fewer than chunkRows.
    const rows = Array.from({ length: 600 }, (_, i) => ({ i, text: `${i}`.padEnd(2_000, 'x') }));
    const chunkBytes = 64 * 1024;
    const published = await new Dataset({ name: 'wide', rows }).publish({
      client,
      chunkRows: 5_000,
      chunkBytes,
    });
    expect(published.uploadedRows).toBe(600);
    const puts = tableWrites().filter((r) => r.path === routes.tableRowsPut());
    expect(puts.length).toBeGreaterThanOrEqual(Math.ceil((600 * 2_030) / chunkBytes));
    for (const put of puts) expect(put.bytes).toBeLessThanOrEqual(chunkBytes + 200);
    expect(puts.reduce((n, r) => n + (bodyOf(r).rows?.length ?? 0), 0)).toBe(600);
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
  }
});

it('rejects a chunkBytes the server body limit could not take, naming the option', async () => {
  const { proxy, client, requests } = await setup();
  try {
    const dataset = new Dataset({ name: 'opts', rows: makeRows(3) });
    await expect(dataset.publish({ client, chunkBytes: 100 * 1024 * 1024 })).rejects.toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      path: 'chunkBytes',
    });
    expect(requests).toEqual([]);
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
  }
});

it('opens a published dataset lazily: length at once, rows fetched page by page, stable row refs', async () => {
  const { proxy, client, requests } = await setup();
  try {
    const rows = makeRows(2_500);
    const local = new Dataset({ name: 'lazy', rows });
    const published = await local.publish({ client });
    const before = requests.length;
    const view = await openDataset(published.ref.uri, { client, pageRows: 1_000 });
    expect(view.length).toBe(2_500);
    expect(view.table).toBe(published.table);
    const afterOpen = requests.length;
    const seen: unknown[] = [];
    for await (const row of view) seen.push(row.value);
    expect(seen).toEqual(rows);
    // Three pages of 1,000 for 2,500 rows.
    expect(requests.slice(afterOpen).filter((r) => r.method === 'GET')).toHaveLength(3);
    expect(afterOpen - before).toBeGreaterThan(0);
    const digests = await local.rowDigests();
    const one = await view.row(1_234);
    expect(one).toEqual({
      index: 1_234,
      digest: digests[1_234],
      ref: `${published.table}/row/${digests[1_234]}`,
      value: rows[1_234],
    });
    expect(await (await view.toDataset()).digest()).toBe(await local.digest());
    await view.close();
    const byTable = await openDataset(published.table, { client });
    expect(byTable.length).toBe(2_500);
    await byTable.close();
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
  }
});
