import { createServer } from 'node:net';
import { callBatchResponse, encodeMsgpack, healthResponse } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import { ScriptedServer } from '../../test/support/transport/scripted-server.js';

let server: ScriptedServer;
let client: ApiClient;

beforeAll(async () => {
  server = await ScriptedServer.start();
  client = new ApiClient({ url: server.url, apiKey: 'secret-key' });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** A loopback port nothing listens on: bind one, note it, close it. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('ApiClient.post', () => {
  it('sends msgpack with the bearer token and parses a JSON answer', async () => {
    server.script = () => ({ status: 200, body: { accepted: 2 } });
    const result = await client.post('/v1/calls/batch', { project: 'p', items: [] });
    expect(result).toEqual({ status: 'sent', body: { accepted: 2 } });
    const seen = server.requests.at(-1)!;
    expect(seen.headers['content-type']).toBe('application/msgpack');
    expect(seen.headers.authorization).toBe('Bearer secret-key');
    expect(seen.body).toEqual({ project: 'p', items: [] });
  });

  it('sends already-encoded bytes as they are', async () => {
    server.script = () => ({ status: 200, body: { accepted: 0 } });
    await client.post('/v1/calls/batch', encodeMsgpack({ already: 'encoded' }));
    expect(server.requests.at(-1)!.body).toEqual({ already: 'encoded' });
  });

  it.each([500, 502, 503, 408, 429])('classifies %i as retryable', async (status) => {
    server.script = () => ({ status, headers: { 'retry-after': '7' } });
    const result = await client.post('/x', {});
    expect(result.status).toBe('retryable');
    if (result.status !== 'retryable') return;
    expect(result.retryAfterMs).toBe(7_000);
    expect(result.error.code).toBe('WEFT_HTTP_ERROR');
  });

  it('classifies a 400 as rejected with the index and message from the error body', async () => {
    server.script = () => ({
      status: 400,
      body: {
        error: {
          code: 'WEFT_INVALID_REQUEST',
          message: 'startedAt must be a number',
          path: 'items.3.startedAt',
          index: 3,
        },
      },
    });
    const result = await client.post('/v1/calls/batch', {});
    expect(result.status).toBe('rejected');
    if (result.status !== 'rejected') return;
    expect(result.statusCode).toBe(400);
    expect(result.index).toBe(3);
    expect(result.error.serverMessage).toBe('startedAt must be a number');
    expect(result.error.path).toBe('items.3.startedAt');
  });

  it('classifies a 2xx whose body does not parse as retryable (not verifiably acknowledged)', async () => {
    server.script = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: undefined });
    expect((await client.post('/x', {})).status).toBe('sent');
    server.script = () => ({ status: 200, headers: { 'content-type': 'application/msgpack' }, body: 'x' });
    const result = await client.post('/x', {});
    expect(result.status).toBe('retryable');
    if (result.status === 'retryable') expect(result.error.code).toBe('WEFT_BAD_RESPONSE');
  });

  it('classifies a refused connection as retryable WEFT_SERVER_UNREACHABLE, never throwing', async () => {
    const port = await deadPort();
    const dead = new ApiClient({ url: `http://127.0.0.1:${port}` });
    try {
      const result = await dead.post('/v1/calls/batch', {});
      expect(result.status).toBe('retryable');
      if (result.status === 'retryable') expect(result.error.code).toBe('WEFT_SERVER_UNREACHABLE');
    } finally {
      await dead.close();
    }
  });
});

describe('ApiClient.getJson / postJson', () => {
  it('returns the parsed, validated body', async () => {
    server.script = () => ({ status: 200, body: { status: 'ok' } });
    await expect(client.getJson('/health', healthResponse)).resolves.toEqual({ status: 'ok' });
    server.script = () => ({ status: 200, body: { accepted: 1 } });
    await expect(client.postJson('/v1/calls/query', { a: 1 }, callBatchResponse)).resolves.toEqual({
      accepted: 1,
    });
    expect(server.requests.at(-1)!.headers['content-type']).toBe('application/json');
    expect(server.requests.at(-1)!.body).toEqual({ a: 1 });
  });

  it('throws WEFT_NOT_FOUND on 404 and WEFT_HTTP_ERROR with the status otherwise', async () => {
    server.script = () => ({
      status: 404,
      body: { error: { code: 'WEFT_NOT_FOUND', message: 'no call abc' } },
    });
    await expect(client.getJson('/v1/calls/p/abc', healthResponse)).rejects.toMatchObject({
      code: 'WEFT_NOT_FOUND',
      statusCode: 404,
      serverMessage: 'no call abc',
    });
    server.script = () => ({ status: 500, body: { error: { code: 'E', message: 'disk on fire' } } });
    await expect(client.getJson('/health', healthResponse)).rejects.toMatchObject({
      code: 'WEFT_HTTP_ERROR',
      statusCode: 500,
      isRetryable: true,
    });
  });

  it('throws WEFT_BAD_RESPONSE naming the field when the body does not match the schema', async () => {
    server.script = () => ({ status: 200, body: { status: 'sleeping' } });
    const error = await client.getJson('/health', healthResponse).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'WEFT_BAD_RESPONSE' });
    expect((error as Error).message).toContain('status');
  });

  it('throws WEFT_SERVER_UNREACHABLE naming the URL and what to do', async () => {
    const port = await deadPort();
    const dead = new ApiClient({ url: `http://127.0.0.1:${port}/` });
    try {
      const error = await dead.getJson('/health', healthResponse).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'WEFT_SERVER_UNREACHABLE', url: `http://127.0.0.1:${port}` });
      expect((error as Error).message).toContain(`http://127.0.0.1:${port}`);
      expect((error as Error).message).toContain('weft serve');
    } finally {
      await dead.close();
    }
  });
});

describe('ApiClient options', () => {
  it.each([
    [{ url: 'ftp://x' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'http://x', requestTimeoutMs: -1 }, 'requestTimeoutMs'],
    [{ url: 'http://x', connections: 0 }, 'connections'],
    [{ url: 'http://x', apiKey: '' }, 'apiKey'],
  ])('rejects %j naming %s', (options, field) => {
    let error: unknown;
    try {
      new ApiClient(options);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'WEFT_INVALID_OPTIONS' });
    expect((error as Error).message).toContain(`\`${field}\``);
  });

  it('keeps a path prefix of the base URL', async () => {
    const prefixed = new ApiClient({ url: `${server.url}/weft/` });
    try {
      server.script = () => ({ status: 200, body: { status: 'ok' } });
      await prefixed.getJson('/health', healthResponse);
      expect(server.requests.at(-1)!.path).toBe('/weft/health');
      expect(prefixed.url).toBe(`${server.url}/weft`);
    } finally {
      await prefixed.close();
    }
  });
});
