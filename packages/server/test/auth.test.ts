import { routes } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { startServer, TokenRequiredError } from '../src/index.js';
import { callIdOf, completeOf } from './support/calls.js';
import { get, post, send } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

const token = 's3cret-token-for-tests';
const batch = { project: 'auth', items: [completeOf(1)] };

describe('with a token', () => {
  it('answers 401 JSON without a token, with a wrong one, or with another scheme', async () => {
    const server = await startTestServer({ token, storage: freshTestStorageUrl() });
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${token}x` },
      { authorization: `Basic ${Buffer.from(`u:${token}`).toString('base64')}` },
      { authorization: token },
    ];
    for (const headers of cases) {
      const reply = await post(server.url, routes.callBatch(), batch, { headers });
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('WEFT_UNAUTHORIZED');
    }
    // Nothing got in.
    const read = await get(server.url, routes.call('auth', callIdOf(1)), { token });
    expect(read.status).toBe(404);
  });

  it('serves /v1 with the right token, and /health and /version without one', async () => {
    const server = await startTestServer({ token, storage: freshTestStorageUrl() });
    expect((await post(server.url, routes.callBatch(), batch, { token })).status).toBe(200);
    expect((await get(server.url, routes.call('auth', callIdOf(1)), { token })).status).toBe(200);
    expect((await get(server.url, routes.call('auth', callIdOf(1)))).status).toBe(401);
    expect((await get(server.url, routes.health())).body).toEqual({ status: 'ok' });
    expect((await get(server.url, routes.version())).status).toBe(200);
  });

  it('guards /v1 routes however the path is spelled', async () => {
    const server = await startTestServer({ token, storage: freshTestStorageUrl() });
    const reply = await send(server.url, '/%761/calls/query', {
      method: 'POST',
      body: JSON.stringify({ project: 'auth' }),
      headers: { 'content-type': 'application/json' },
    });
    expect([401, 404]).toContain(reply.status);
  });

  it('checks the token before reading or validating the body', async () => {
    const server = await startTestServer({ token, storage: freshTestStorageUrl() });
    const reply = await send(server.url, routes.callBatch(), {
      method: 'POST',
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(401);
  });
});

describe('without a token', () => {
  it('serves /v1 openly on loopback', async () => {
    const server = await startTestServer({ storage: freshTestStorageUrl() });
    expect((await post(server.url, routes.callBatch(), batch)).status).toBe(200);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com'])('refuses to start on %s', async (host) => {
    const error = await startServer({ host, port: 0, dbPath: ':memory:', uiDir: false }).catch(
      (e: unknown) => e,
    );
    expect(TokenRequiredError.isInstance(error)).toBe(true);
    expect((error as TokenRequiredError).code).toBe('WEFT_TOKEN_REQUIRED');
    expect((error as Error).message).toContain(host);
  });

  it('starts on a non-loopback address when given a token', async () => {
    const server = await startServer({ host: '0.0.0.0', port: 0, dbPath: ':memory:', token, uiDir: false });
    try {
      const local = `http://127.0.0.1:${server.port}`;
      expect((await post(local, routes.callBatch(), batch)).status).toBe(401);
      expect((await post(local, routes.callBatch(), batch, { token })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
