import { routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClickHouseProcess, startClickHouse } from '../../src/testing/index.js';
import { startTestServer } from '@weft/test-server';
import { freshDatabaseName } from '../support/test-storage.js';
import { post } from '../support/http.js';
import { startOf } from '../support/calls.js';
import { StallProxy } from './stall-proxy.js';

// This file stops and stalls its ClickHouse, so it has one of its own rather
// than the run's shared one.
let clickhouse: ClickHouseProcess;
beforeAll(async () => {
  clickhouse = await startClickHouse();
});
afterAll(() => clickhouse?.dispose());

const batch = (n: number) => ({ project: 'p', items: [startOf(n)] });
const query = { project: 'p', limit: 10 };

describe('ClickHouse down or stuck', () => {
  it('answers 503 with Retry-After while ClickHouse is stopped, and recovers once it is back', async () => {
    const server = await startTestServer({
      storage: `clickhouse://127.0.0.1:${clickhouse.httpPort}/${freshDatabaseName()}?timeoutMs=3000`,
    });
    expect((await post(server.url, routes.callBatch(), batch(1))).status).toBe(200);

    await clickhouse.stop();
    for (const reply of [
      await post(server.url, routes.callBatch(), batch(2)),
      await post(server.url, routes.callQuery(), query),
    ]) {
      expect(reply.status).toBe(503);
      expect(reply.body.error.code).toBe('WEFT_STORAGE_UNAVAILABLE');
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    await clickhouse.start();
    expect((await post(server.url, routes.callBatch(), batch(3))).status).toBe(200);
    const page = await post(server.url, routes.callQuery(), query);
    expect(page.status).toBe(200);
    expect(page.body.calls.map((c: { inputs: { n: number } }) => c.inputs.n).sort()).toEqual([1, 3]);
  });

  it('answers 503 instead of hanging when ClickHouse stops answering, and recovers when it answers again', async () => {
    const proxy = await StallProxy.start(clickhouse.httpPort);
    const server = await startTestServer({
      storage: `clickhouse://127.0.0.1:${proxy.port}/${freshDatabaseName()}?timeoutMs=1000`,
    });
    try {
      expect((await post(server.url, routes.callBatch(), batch(1))).status).toBe(200);
      proxy.stall();
      const stuck = await post(server.url, routes.callQuery(), query);
      expect(stuck.status).toBe(503);
      expect(stuck.headers.get('retry-after')).toBeTruthy();
      proxy.resume();
      const page = await post(server.url, routes.callQuery(), query);
      expect(page.status).toBe(200);
      expect(page.body.calls).toHaveLength(1);
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it('refuses to start with WEFT_STORAGE_UNAVAILABLE when ClickHouse cannot be reached', async () => {
    const port = clickhouse.httpPort;
    await clickhouse.stop();
    try {
      await expect(
        startTestServer({ storage: `clickhouse://127.0.0.1:${port}/${freshDatabaseName()}` }),
      ).rejects.toMatchObject({
        code: 'WEFT_STORAGE_UNAVAILABLE',
        message: `Could not reach ClickHouse at http://127.0.0.1:${port} (ECONNREFUSED); is it running, and is --storage right?`,
      });
    } finally {
      await clickhouse.start();
    }
  });
});
