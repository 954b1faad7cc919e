import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { routes } from '@weft/protocol';
import { startTestServer, tempDir } from '@weft/test-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../src/app/index.js';
import { completeOf } from './support/calls.js';
import { openTestStorage } from './support/test-storage.js';

// Node's fetch will not send a Host other than the URL's; a raw request can,
// as a browser does for a page whose name resolves to 127.0.0.1.

interface Answer {
  status: number;
  code: string | undefined;
}

/** Sends one request with exactly these headers (Host included) and reads the answer's error code. */
function exchange(
  url: string,
  {
    method = 'GET',
    path,
    headers,
    body,
  }: { method?: string; path: string; headers: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { method, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let code: string | undefined;
        try {
          code = JSON.parse(text)?.error?.code;
        } catch {}
        resolve({ status: res.statusCode ?? 0, code });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const batch = JSON.stringify({ project: 'p', items: [completeOf(1)] });
const json = { 'content-type': 'application/json' };

describe('the Host a server answers (DNS rebinding)', () => {
  it('regression: a token-less loopback server refused no Host; now it answers loopback names and its own address only', async () => {
    const server = await startTestServer();
    const port = server.port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      'app.localhost',
      '127.0.0.2',
    ]) {
      expect([
        host,
        (await exchange(server.url, { path: routes.projectList(), headers: { host } })).status,
      ]).toEqual([host, 200]);
    }
    for (const host of [
      `rebind.attacker.example:${port}`,
      'rebind.test',
      '127.0.0.1.nip.io',
      '0.0.0.0',
      'evil:7420@x',
    ]) {
      const read = await exchange(server.url, { path: routes.projectList(), headers: { host } });
      expect([host, read]).toEqual([host, { status: 403, code: 'WEFT_HOST_NOT_ALLOWED' }]);
      const write = await exchange(server.url, {
        method: 'POST',
        path: routes.callBatch(),
        headers: { host, ...json },
        body: batch,
      });
      expect([host, write]).toEqual([host, { status: 403, code: 'WEFT_HOST_NOT_ALLOWED' }]);
    }
    // Nothing was written through a refused Host.
    const projects = await exchange(server.url, {
      path: routes.projectList(),
      headers: { host: `127.0.0.1:${port}` },
    });
    expect(projects.status).toBe(200);
  });

  it('keeps the Host check with tokens (defence in depth) and adds the names given in allowedHosts', async () => {
    const server = await startTestServer({ token: 'admin-token-1', allowedHosts: ['traces.internal'] });
    const auth = { authorization: 'Bearer admin-token-1' };
    expect(
      (await exchange(server.url, { path: routes.projectList(), headers: { host: 'rebind.test', ...auth } }))
        .code,
    ).toBe('WEFT_HOST_NOT_ALLOWED');
    expect(
      (
        await exchange(server.url, {
          path: routes.projectList(),
          headers: { host: 'traces.internal:443', ...auth },
        })
      ).status,
    ).toBe(200);
  });
});

describe('writes from pages of other sites', () => {
  it('regression: refuses a state change whose Sec-Fetch-Site or Origin names another site, and passes the same origin and programs', async () => {
    const server = await startTestServer();
    const host = `127.0.0.1:${server.port}`;
    const post = (headers: Record<string, string>) =>
      exchange(server.url, {
        method: 'POST',
        path: routes.callBatch(),
        headers: { host, ...json, ...headers },
        body: batch,
      });
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: `http://localhost:${server.port + 1}` },
      { origin: 'http://evil.example' },
      { origin: `http://127.0.0.1:${server.port + 1}` },
      { origin: 'null' },
      { origin: 'file://' },
    ]) {
      expect([headers, await post(headers)]).toEqual([
        headers,
        { status: 403, code: 'WEFT_CROSS_SITE_REQUEST' },
      ]);
    }
    // The server's own UI, a typed-in request, and a program without either header.
    expect((await post({ 'sec-fetch-site': 'same-origin', origin: `http://${host}` })).status).toBe(200);
    expect((await post({ 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await post({})).status).toBe(200);
    // Reads are left alone: the browser does not let another site read the answer.
    expect(
      (
        await exchange(server.url, {
          path: routes.projectList(),
          headers: { host, 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(200);
  });

  it('beyond loopback answers any Host, and still refuses writes from other sites', async () => {
    const dir = await tempDir('weft-host-origin-');
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const storage = await openTestStorage(dir);
    const app = createApp({ host: '0.0.0.0', token: 'admin-token-2', storage, uiDir: false });
    onTestFinished(async () => {
      await app.close();
      await storage.close();
    });
    const headers = { authorization: 'Bearer admin-token-2', host: 'traces.example.com', ...json };
    const ok = await app.inject({ method: 'POST', url: routes.callBatch(), headers, payload: batch });
    expect(ok.statusCode).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: routes.callBatch(),
      headers: { ...headers, origin: 'http://evil.example' },
      payload: batch,
    });
    expect([refused.statusCode, refused.json().error.code]).toEqual([403, 'WEFT_CROSS_SITE_REQUEST']);
    const sameOrigin = await app.inject({
      method: 'POST',
      url: routes.callBatch(),
      headers: { ...headers, origin: 'http://traces.example.com' },
      payload: batch,
    });
    expect(sameOrigin.statusCode).toBe(200);
  });
});
