import { routes } from '@weft/protocol';
import { afterEach, expect, it } from 'vitest';
import { init } from '../../src/client/init.js';
import { Dataset, openDataset } from '../../src/datasets/index.js';
import { resetWeft } from '../../src/testing/index.js';
import { startTestServer } from '@weft/test-server';
import { startRequestLogProxy } from './fixtures/request-log-proxy.js';

afterEach(async () => {
  await resetWeft({ timeoutMs: 5_000 });
});

/** The server's default body limit (64 MiB). */
const BODY_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * 20,000 rows × 2 KB (≈ 40 MB) keeps this file well under a minute on a busy
 * 2-core machine; the 100,000-row, 200 MB case is `node bench/dataset.mjs`.
 */
const ROWS = 20_000;

it(`publishes ${ROWS.toLocaleString('en-US')} rows of ≈ 2 KB in chunks under the body limit, reads them back lazily, and re-uploads one changed row alone`, async () => {
  const server = await startTestServer();
  const proxy = await startRequestLogProxy(server.url);
  try {
    const client = init({ project: 'large', url: proxy.url, outbox: false });
    const filler = 'abcdefghij'.repeat(200);
    const rows = Array.from({ length: ROWS }, (_, i) => ({ i, text: `${i}:${filler}` }));
    const dataset = new Dataset({ name: 'large', rows });
    const published = await dataset.publish({ client });
    expect(published.uploadedRows).toBe(ROWS);

    const tableRequests = proxy.requests.filter((r) => r.path.startsWith('/v1/tables'));
    const puts = tableRequests.filter((r) => r.path === routes.tableRowsPut());
    const totalBytes = puts.reduce((n, r) => n + r.bytes, 0);
    expect(totalBytes).toBeGreaterThan(ROWS * 2_000);
    // 8 MiB chunks of rows by default: several requests, each far under the limit.
    expect(puts.length).toBeGreaterThanOrEqual(Math.floor(totalBytes / (8 * 1024 * 1024)));
    for (const put of puts) expect(put.bytes).toBeLessThan(8 * 1024 * 1024 + 200);
    for (const r of tableRequests) expect(r.bytes).toBeLessThan(BODY_LIMIT_BYTES);
    expect(tableRequests.filter((r) => r.path === routes.tableByDigests())).toHaveLength(1);

    // Lazy read-back: length at once, then pages; a sample of rows match by index.
    const view = await openDataset(published.ref.uri, { client, pageRows: 5_000 });
    expect(view.length).toBe(ROWS);
    let count = 0;
    for await (const row of view) {
      if (row.index % 997 === 0) expect(row.value).toEqual(rows[row.index]);
      count++;
    }
    expect(count).toBe(ROWS);
    await view.close();

    // One changed row of the whole set: one row travels.
    const edited = [...rows];
    edited[ROWS - 7] = { i: ROWS - 7, text: 'changed' };
    const mark = proxy.requests.length;
    const again = await new Dataset({ name: 'large', rows: edited }).publish({ client });
    expect(again.uploadedRows).toBe(1);
    const edits = proxy.requests.slice(mark).filter((r) => r.path === routes.tableRowsPut());
    expect(edits).toHaveLength(1);
    expect(edits[0]?.bytes).toBeLessThan(1_000);
    const reopened = await openDataset(again.table, { client });
    expect((await reopened.row(ROWS - 7)).value).toEqual({ i: ROWS - 7, text: 'changed' });
    await reopened.close();
  } finally {
    await resetWeft({ timeoutMs: 5_000 });
    await proxy.close();
    await server.close();
  }
}, 60_000);
