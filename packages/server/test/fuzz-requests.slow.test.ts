import { rm } from 'node:fs/promises';
import { routes } from '@weft/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/index.js';
import { openTestStorage } from './support/test-storage.js';
import {
  expectAlive,
  expectHandled,
  hostileString,
  injectSender,
  pathCase,
  rawBodyCase,
  type Send,
  seedVictim,
  snapshotVictim,
  type VictimSeed,
} from './support/fuzz-harness.js';
import { tempDir } from '@weft/test-server';

// Request-level fuzzing, in-process: bytes that are not valid msgpack or
// JSON under every content type, hostile path parameters (traversal in
// every spelling) and query strings on every read route, and hostile
// Authorization headers. Same contract: 2xx or clear 4xx, alive, victim intact.

const seed = Number(process.env.WEFT_FUZZ_SEED ?? Date.now() % 2 ** 31);
const token = 'fuzz-admin-token-0123456789';

describe('fuzz: raw bodies, paths and headers, in-process', () => {
  let send: Send;
  let sendWithToken: Send;
  let victim: VictimSeed;
  let before: unknown;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const dir = await tempDir();
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const storage = await openTestStorage(dir);
    const open = createApp({ storage, uiDir: false });
    const guarded = createApp({
      storage,
      uiDir: false,
      token,
      projectTokens: { 'fuzz-scoped-token': ['fuzz'] },
    });
    cleanup.push(async () => {
      await open.close();
      await guarded.close();
      await storage.close();
    });
    send = injectSender(open);
    sendWithToken = injectSender(guarded);
    victim = await seedVictim(send);
    before = await snapshotVictim(send, victim);
  });
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it('answers malformed bytes under any content type with a clear 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(rawBodyCase, async ({ url, contentType, body }) => {
        const headers: Record<string, string> = contentType === '' ? {} : { 'content-type': contentType };
        const reply = await send({ method: 'POST', url, headers, body: Buffer.from(body) });
        expectHandled(reply, `POST ${url} as ${JSON.stringify(contentType)}`);
        await expectAlive(send);
      }),
      { numRuns: 600, seed },
    );
    expect(await snapshotVictim(send, victim)).toEqual(before);
  });

  it('answers hostile path parameters and query strings on every route without reaching the victim', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(pathCase, async (request) => {
        // light-my-request parses the URL itself and cannot represent some
        // spellings ("/\\/…"); those go over a real socket in fuzz-http.slow.test.ts.
        fc.pre(injectable(request.url));
        const reply = await send(request);
        statuses.add(reply.status);
        expectHandled(reply, `${request.method} ${request.url}`);
        // Whatever the spelling, nothing under another project name is the victim's.
        if (reply.status === 200 && request.method === 'GET')
          expect(reply.text).not.toContain('victim file bytes');
        await expectAlive(send);
      }),
      { numRuns: 800, seed },
    );
    expect(statuses.has(400)).toBe(true);
    expect(statuses.has(404)).toBe(true);
    expect(await snapshotVictim(send, victim)).toEqual(before);
  });

  it("regression: a path with broken percent-encoding got Fastify's own error body, not errorResponse", async () => {
    for (const url of [
      '/v1/calls/%ff/x',
      '/v1/objects/a/%zz/versions',
      '/v1/files/%/x',
      '/v1/calls//%_%?offset=1',
    ]) {
      const reply = await send({ method: 'GET', url });
      expectHandled(reply, url);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.text).error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'url' });
    }
  });

  it('refuses every hostile Authorization header with 401 and never echoes it', async () => {
    const header = fc.oneof(
      hostileString.map((s) => `Bearer ${s}`),
      fc.string({ unit: 'binary-ascii', maxLength: 80 }),
      fc.constantFrom(
        `Bearer ${token.slice(0, -1)}`,
        `Bearer ${token}\u0000`,
        `bearer  ${token}x`,
        `Basic ${token}`,
        'Bearer',
        'Bearer ',
        `Bearer ${'A'.repeat(10_000)}`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom('fuzz', 'victim'), async (authorization, project) => {
        const reply = await sendWithToken({
          method: 'POST',
          url: routes.callQuery(),
          headers: { 'content-type': 'application/json', authorization },
          body: Buffer.from(JSON.stringify({ project })),
        });
        expectHandled(reply, `Authorization: ${JSON.stringify(authorization)}`);
        expect(reply.status).toBe(401);
        // Long enough not to occur in the fixed message by chance.
        const presented = authorization.slice(7);
        if (presented.length >= 16) expect(reply.text).not.toContain(presented);
      }),
      { numRuns: 300, seed },
    );
  });
});

function injectable(url: string): boolean {
  try {
    new URL(url, 'http://localhost');
    return true;
  } catch {
    return false;
  }
}
