import { routes } from '@weft/protocol';
import { afterEach, expect, it } from 'vitest';
import { init } from '../../src/client/init.js';
import { Dataset, openDataset } from '../../src/datasets/index.js';
import { resetWeft } from '../../src/testing/index.js';
import { startTestServer } from '../harness/index.js';
import { startRequestLogProxy } from './fixtures/request-log-proxy.js';

afterEach(async () => {
  await resetWeft({ timeoutMs: 5_000 });
});

/** A real server behind a pass-through proxy that logs every request's method and path. */
async function setup() {
  const server = await startTestServer();
  const proxy = await startRequestLogProxy(server.url);
  const { requests } = proxy;
  const client = init({ project: 'datasets', url: proxy.url, outbox: false });
  const tableWrites = () =>
    requests.filter(
      (r) => r.method === 'POST' && (r.path === routes.tableCreate() || r.path === routes.tableAppend()),
    );
  return { server, proxy, client, requests, tableWrites };
}

const makeRows = (n: number, tag = 'v1') =>
  Array.from({ length: n }, (_, i) => ({ i, text: `row ${i} ${tag}` }));

it('publishes a dataset as a chunked table; re-publishing uploads nothing; a grown dataset uploads only its new rows', async () => {
  const { proxy, client, tableWrites } = await setup();
  try {
    const first = await new Dataset({ name: 'corpus', rows: makeRows(2_500) }).publish({
      client,
      chunkRows: 1_000,
    });
    expect(first.uploadedRows).toBe(2_500);
    expect(tableWrites().map((r) => r.path)).toEqual([
      routes.tableCreate(),
      routes.tableAppend(),
      routes.tableAppend(),
    ]);
    expect(first.table).toMatch(/^weft:\/\/\/datasets\/table\/[A-Za-z0-9_-]{43}$/);
    expect(await client.get(first.ref)).toEqual({ rows: first.table, rowCount: 2_500 });

    const again = await new Dataset({ name: 'corpus', rows: makeRows(2_500) }).publish({
      client,
      chunkRows: 1_000,
    });
    expect(again.uploadedRows).toBe(0);
    expect(again.table).toBe(first.table);
    expect(tableWrites()).toHaveLength(3);

    const grown = await new Dataset({ name: 'corpus', rows: makeRows(3_200) }).publish({
      client,
      chunkRows: 1_000,
    });
    expect(grown.uploadedRows).toBe(1_200);
    expect(tableWrites()).toHaveLength(5);
    expect(
      tableWrites()
        .slice(3)
        .every((r) => r.path === routes.tableAppend()),
    ).toBe(true);
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
  }
});

it('re-uploads from the chunk holding a changed row onward (one-row uploads need a server endpoint; see docs)', async () => {
  const { proxy, client } = await setup();
  try {
    const rows = makeRows(3_000);
    await new Dataset({ name: 'edited', rows }).publish({ client, chunkRows: 1_000 });
    const edited = [...rows];
    edited[1_500] = { i: 1_500, text: 'changed' };
    const published = await new Dataset({ name: 'edited', rows: edited }).publish({
      client,
      chunkRows: 1_000,
    });
    expect(published.uploadedRows).toBe(2_000);
    const digests = await new Dataset({ name: 'edited', rows: edited }).rowDigests();
    const page = await fetch(
      `${proxy.url}${routes.tableRows('datasets', published.table.split('/').pop() ?? '')}?offset=1500&limit=1`,
    );
    const body = (await page.json()) as { rows: { digest: string; value: unknown }[]; rowCount: number };
    expect(body.rowCount).toBe(3_000);
    expect(body.rows[0]).toEqual({ digest: digests[1_500], value: { i: 1_500, text: 'changed' } });
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
