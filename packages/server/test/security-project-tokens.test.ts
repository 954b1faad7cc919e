import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { digestValue, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp, SqliteStorage, startServer } from '../src/index.js';
import { callIdOf, completeOf } from './support/calls.js';
import { get, post, send } from './support/http.js';
import { startTestServer, tempDir } from '@weft/test-server';

async function tempDirForTest(): Promise<string> {
  const dir = await tempDir();
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const admin = 'admin-7f3c9d-secret';
const tokenA = 'proj-a-token-4b1e0a';
const tokenAB = 'proj-ab-token-9d2c11';
const projectTokens = { [tokenA]: ['projA'], [tokenAB]: ['projA', 'projB'] };

function inProcessApp(): { app: FastifyInstance; routes: { method: string; url: string }[] } {
  const storage = new SqliteStorage({ path: ':memory:' });
  const app = createApp({ storage, uiDir: false, token: admin, projectTokens });
  onTestFinished(async () => {
    await app.close();
    await storage.close();
  });
  // The /v1 plugin registers its routes when the app boots, after this hook.
  const seen: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) seen.push({ method, url: route.url });
  });
  return { app, routes: seen };
}

/** A concrete URL for a route pattern, every parameter valid, the project `project`. */
function fill(pattern: string, project: string): string {
  const values: Record<string, string> = {
    project,
    id: callIdOf(1),
    name: 'obj',
    version: 'latest',
    digest: 'A'.repeat(43),
  };
  return pattern.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x');
}

describe('per-project tokens', () => {
  it('refuses every /v1 route with 403 WEFT_FORBIDDEN for a project outside the token scope', async () => {
    const { app, routes: registered } = inProcessApp();
    await app.ready();
    const v1 = registered.filter((r) => r.url.startsWith('/v1/'));
    // Calls, objects, tables and files: every route the app has today and any added later.
    expect(v1.length).toBeGreaterThanOrEqual(13);
    for (const route of v1) {
      const isFileUpload = route.method === 'POST' && route.url.includes(':project');
      // An export names its project in the query string; a deletion (and a PUT), like a POST, send a body.
      const query = route.url === routes.callExport() ? '?project=victim' : '';
      const reply = await app.inject({
        method: route.method as 'GET',
        url: `${fill(route.url, 'victim')}${query}`,
        headers: {
          authorization: `Bearer ${tokenA}`,
          'content-type': isFileUpload ? 'application/octet-stream' : 'application/json',
          // OTLP ingest (/v1/traces) names its project in this header.
          'x-weft-project': 'victim',
        },
        ...(['POST', 'PUT', 'DELETE'].includes(route.method)
          ? { payload: isFileUpload ? Buffer.from('bytes') : { project: 'victim' } }
          : {}),
      });
      expect(reply.statusCode, `${route.method} ${route.url}`).toBe(403);
      if (route.method !== 'HEAD') {
        const { error } = reply.json();
        expect(error.code).toBe('WEFT_FORBIDDEN');
        // The project list names no project: refused for every scoped token (fail closed).
        if (route.url !== routes.projectList()) expect(error.message).toContain('"victim"');
        expect(error.message).not.toContain(tokenA);
      }
    }
  });

  it('lets a scoped token reach its own projects and the admin token reach all, over HTTP', async () => {
    const server = await startTestServer({ token: admin, projectTokens });
    const batch = (project: string, n: number) => ({ project, items: [completeOf(n)] });
    expect((await post(server.url, routes.callBatch(), batch('projA', 1), { token: tokenA })).status).toBe(
      200,
    );
    expect((await post(server.url, routes.callBatch(), batch('projB', 2), { token: tokenAB })).status).toBe(
      200,
    );
    expect((await post(server.url, routes.callBatch(), batch('other', 3), { token: admin })).status).toBe(
      200,
    );
    expect((await get(server.url, routes.call('projA', callIdOf(1)), { token: tokenAB })).status).toBe(200);

    const denied = await post(server.url, routes.callBatch(), batch('other', 4), {
      token: tokenAB,
      format: 'msgpack',
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'WEFT_FORBIDDEN' });
    expect((await get(server.url, routes.call('other', callIdOf(3)), { token: tokenA })).status).toBe(403);
    const query = await post(server.url, routes.callQuery(), { project: 'projB' }, { token: tokenA });
    expect(query.status).toBe(403);
    expect(query.body.error.message).toContain('projB');

    // The refused write changed nothing.
    expect((await get(server.url, routes.call('other', callIdOf(4)), { token: admin })).status).toBe(404);
  });

  it('refuses objects, tables and files of another project and stores nothing there', async () => {
    const server = await startTestServer({ token: admin, projectTokens });
    const value = { secret: 1 };
    const object = { project: 'victim', name: 'o', kind: 'object', value, digest: digestValue(value) };
    expect((await post(server.url, routes.objectCreate(), object, { token: tokenA })).status).toBe(403);
    expect(
      (
        await post(
          server.url,
          routes.tableCreate(),
          { project: 'victim', rows: [{ a: 1 }] },
          { token: tokenA },
        )
      ).status,
    ).toBe(403);
    const file = await send(server.url, routes.fileCreate('victim'), {
      method: 'POST',
      body: 'bytes',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${tokenA}` },
    });
    expect(file.status).toBe(403);
    expect((await get(server.url, routes.objectList('victim'), { token: admin })).body).toEqual({
      objects: [],
    });
  });

  it('validates the project name before the scope: a malformed one is a 400 naming the field', async () => {
    const { app } = inProcessApp();
    const reply = await app.inject({
      method: 'POST',
      url: routes.callQuery(),
      headers: { authorization: `Bearer ${tokenA}` },
      payload: { project: '../projA' },
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json().error).toMatchObject({ code: 'WEFT_INVALID_REQUEST', path: 'project' });
  });

  it('answers 401 to an unknown token and to a prefix or extension of a real one', async () => {
    const { app } = inProcessApp();
    for (const token of ['nope', tokenA.slice(0, -1), `${tokenA}0`, tokenA.toUpperCase()]) {
      const reply = await app.inject({
        method: 'POST',
        url: routes.callQuery(),
        headers: { authorization: `Bearer ${token}` },
        payload: { project: 'projA' },
      });
      expect(reply.statusCode).toBe(401);
      expect(reply.body).not.toContain(token);
    }
  });
});

describe('tokens file and binding', () => {
  it('reads project tokens from tokensFile and starts beyond loopback with them alone', async () => {
    const dir = await tempDirForTest();
    const file = join(dir, 'tokens.json');
    await writeFile(file, JSON.stringify({ [tokenA]: ['projA'] }));
    const server = await startServer({
      host: '0.0.0.0',
      port: 0,
      dbPath: join(dir, 'w.db'),
      tokensFile: file,
      uiDir: false,
    });
    onTestFinished(() => server.close());
    const local = `http://127.0.0.1:${server.port}`;
    expect((await post(local, routes.callQuery(), { project: 'projA' })).status).toBe(401);
    expect((await post(local, routes.callQuery(), { project: 'projA' }, { token: tokenA })).status).toBe(200);
    expect((await post(local, routes.callQuery(), { project: 'projB' }, { token: tokenA })).status).toBe(403);
  });

  it('refuses a malformed tokens file without quoting its secrets', async () => {
    const dir = await tempDirForTest();
    const cases: Record<string, string> = {
      'not json': `{"${tokenA}": ["projA"`,
      'bad project': JSON.stringify({ [tokenA]: ['../etc'] }),
      'no projects': JSON.stringify({ [tokenA]: [] }),
      'token with a space': JSON.stringify({ [`${tokenA} x`]: ['projA'] }),
    };
    for (const [name, text] of Object.entries(cases)) {
      const file = join(dir, `${name}.json`);
      await writeFile(file, text);
      const error = (await startServer({ port: 0, dbPath: ':memory:', tokensFile: file, uiDir: false }).catch(
        (e: unknown) => e,
      )) as Error & { code: string };
      expect(error.code, name).toBe('WEFT_INVALID_OPTIONS');
      expect(error.message, name).toContain(file);
      expect(error.message, name).not.toContain(tokenA);
    }
  });

  it('refuses projectTokens options naming the bad entry by position, not by token', () => {
    const storage = new SqliteStorage({ path: ':memory:' });
    onTestFinished(() => storage.close());
    const error = (() => {
      try {
        createApp({ storage, projectTokens: { ok: ['a'], [tokenA]: ['no/slash'] } });
      } catch (e) {
        return e as Error & { code: string; path: string };
      }
      throw new Error('createApp accepted a bad project name');
    })();
    expect(error).toMatchObject({ code: 'WEFT_INVALID_OPTIONS', path: 'projectTokens[#1].0' });
    expect(error.message).not.toContain(tokenA);
  });

  it('binds to loopback by default', async () => {
    const dir = await tempDirForTest();
    const server = await startServer({ port: 0, dbPath: join(dir, 'w.db'), uiDir: false });
    onTestFinished(() => server.close());
    expect(server.host).toBe('127.0.0.1');
  });
});
