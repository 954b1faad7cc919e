import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { tempDir } from '@weft/test-server';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../src/index.js';
import { openTestStorage } from './support/test-storage.js';

const IDLE_MS = 200;
const cleanup: (() => Promise<void>)[] = [];
let url: string;

beforeAll(async () => {
  const dir = await tempDir();
  const storage = await openTestStorage(dir);
  const app = createApp({ storage, uiDir: false, idleTimeoutMs: IDLE_MS });
  // A handler slower than the idle timeout, as an ingest waiting on a busy database is.
  app.post('/slow-handler', async () => {
    await delay(IDLE_MS * 4);
    return { handled: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  url = `http://127.0.0.1:${port}`;
  cleanup.push(async () => {
    await app.close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });
});

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

it('regression: a request the server works on for longer than idleTimeoutMs gets its answer (the socket was cut: "other side closed")', async () => {
  const reply = await request(`${url}/slow-handler`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(reply.statusCode).toBe(200);
  expect(await reply.body.json()).toEqual({ handled: true });
});
