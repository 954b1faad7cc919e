import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { routes } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { startServerProcess, startTestServer } from '../src/index.js';

const PROJECT = 'test-server';

/** Stores one complete call and returns its id. */
async function storeCall(url: string, token?: string): Promise<string> {
  const id = randomUUID();
  const item = {
    type: 'complete',
    id,
    traceId: id,
    parentId: null,
    opName: 'probe',
    startedAt: Date.now(),
    endedAt: Date.now() + 1,
    inputs: {},
  };
  const res = await fetch(new URL(routes.callBatch(), url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ project: PROJECT, items: [item] }),
  });
  expect(res.status).toBe(200);
  return id;
}

const callStatus = async (url: string, id: string) =>
  (await fetch(new URL(routes.call(PROJECT, id), url))).status;

describe('startTestServer', () => {
  it('listens on 127.0.0.1, and close() stops it and removes its temp folder, a second close joining the first', async () => {
    const server = await startTestServer({ register: false });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(existsSync(server.dbPath)).toBe(true);
    expect((await fetch(new URL('/health', server.url))).status).toBe(200);

    await Promise.all([server.close(), server.close()]);
    expect(existsSync(server.dir)).toBe(false);
    await expect(fetch(new URL('/health', server.url))).rejects.toThrow();
  });

  it('restart() keeps the port and the data', async () => {
    const server = await startTestServer();
    const id = await storeCall(server.url);
    await server.restart();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(await callStatus(server.url, id)).toBe(200);
  });

  it('passes the server options through: a token is then required', async () => {
    const server = await startTestServer({ token: 'test-server-token' });
    expect(server.token).toBe('test-server-token');
    expect((await fetch(new URL(routes.callBatch(), server.url), { method: 'POST' })).status).toBe(401);
    await storeCall(server.url, 'test-server-token');
  });
});

describe('startServerProcess', () => {
  it('runs the server in a child that kill() SIGKILLs and start() brings back on the same port with its data', async () => {
    const server = await startServerProcess();
    expect(server.child.pid).not.toBe(process.pid);
    const id = await storeCall(server.url);
    const { port } = server;

    await server.kill();
    expect(server.child.signalCode).toBe('SIGKILL');
    await expect(fetch(new URL('/health', server.url))).rejects.toThrow();

    await server.start();
    expect(server.port).toBe(port);
    expect(await callStatus(server.url, id)).toBe(200);
  });

  it('close() kills the child and removes its temp folder', async () => {
    const server = await startServerProcess({ register: false });
    await server.close();
    expect(server.child.signalCode).toBe('SIGKILL');
    expect(existsSync(server.dir)).toBe(false);
  });
});
