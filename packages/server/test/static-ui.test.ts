import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { get, send } from './support/http.js';
import { startTestServer, tempDir } from '@weft/test-server';

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

async function uiFolder(): Promise<string> {
  const dir = await tempDir();
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const ui = join(dir, 'ui');
  await mkdir(join(ui, 'assets'), { recursive: true });
  await writeFile(join(ui, 'index.html'), '<!doctype html><div id="app"></div>');
  await writeFile(join(ui, 'assets', 'app-1234.js'), 'console.log("ui")');
  await writeFile(join(dir, 'secret.txt'), 'outside the ui folder');
  return ui;
}

describe('with a built UI', () => {
  it('regression: sent no CSP, frame protection or nosniff; now every answer carries them', async () => {
    const server = await startTestServer({ uiDir: await uiFolder() });
    for (const [path, headers] of [
      ['/', html],
      ['/assets/app-1234.js', {}],
      ['/traces/x', html],
      [routes.health(), {}],
      [routes.projectList(), {}],
      ['/v1/unknown', {}],
    ] as const) {
      const reply = await get(server.url, path, { headers });
      const csp = reply.headers.get('content-security-policy') ?? '';
      expect([path, csp]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect([path, reply.headers.get('x-frame-options')]).toEqual([path, 'DENY']);
      expect([path, reply.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
    }
  });

  it('regression: sent authenticated file reads as Cache-Control public; now private', async () => {
    const server = await startTestServer({ token: 'file-token-1' });
    const stored = await send(server.url, routes.fileCreate('p'), {
      method: 'POST',
      body: 'file bytes',
      headers: { 'content-type': 'application/octet-stream', authorization: 'Bearer file-token-1' },
    });
    expect(stored.status).toBe(200);
    const read = await get(server.url, routes.fileRead('p', stored.body.digest), { token: 'file-token-1' });
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });

  it('serves index.html at / and assets with their types', async () => {
    const server = await startTestServer({ uiDir: await uiFolder() });
    const root = await get(server.url, '/', { headers: html });
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toContain('text/html');
    expect(root.body).toContain('id="app"');
    const asset = await get(server.url, '/assets/app-1234.js');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.body).toBe('console.log("ui")');
  });

  it('falls back to index.html for browser navigations, but not for API paths or other clients', async () => {
    const server = await startTestServer({ uiDir: await uiFolder() });
    const spa = await get(server.url, '/traces/0190a5f0-0000-7000-8000-000000000001', { headers: html });
    expect(spa.status).toBe(200);
    expect(spa.body).toContain('id="app"');
    for (const path of ['/v1/unknown', '/v1', '/health/deep', '/version/x']) {
      const api = await get(server.url, path, { headers: html });
      expect(api.status).toBe(404);
      expect(api.body.error.code).toBe('WEFT_NOT_FOUND');
    }
    const script = await get(server.url, '/traces/x', { headers: { accept: 'application/json' } });
    expect(script.status).toBe(404);
    const post = await send(server.url, '/traces/x', { method: 'POST', headers: html });
    expect(post.status).toBe(404);
  });

  it('never serves files outside the UI folder', async () => {
    const server = await startTestServer({ uiDir: await uiFolder() });
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const reply = await get(server.url, path);
      expect(reply.body).not.toContain('outside the ui folder');
    }
  });
});

describe('without a UI', () => {
  it('answers / with a short note, as JSON or HTML', async () => {
    const server = await startTestServer({ uiDir: false });
    const json = await get(server.url, '/');
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ name: 'weft', ui: false });
    const page = await get(server.url, '/', { headers: html });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('Weft trace server is running');
    expect((await get(server.url, '/traces/x', { headers: html })).status).toBe(404);
  });

  it('treats a folder without index.html as no UI', async () => {
    const dir = await tempDir();
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const server = await startTestServer({ uiDir: dir });
    expect((await get(server.url, '/')).body).toMatchObject({ ui: false });
  });
});
