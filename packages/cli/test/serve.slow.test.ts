import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routes } from '@weft/protocol';
import { request } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit/exit-code.js';

// The real, built binary: what `npm run build` produces and a user runs.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

beforeAll(() => {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: build first (npm run build, or npx tsup in packages/cli).`);
  }
});

interface Weft {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-cli-serve-'));
  dirs.push(dir);
  return dir;
}

function weft(args: string[], { cwd, env = {} }: { cwd: string; env?: Record<string, string> }): Weft {
  const { WEFT_TOKEN: _t, WEFT_URL: _u, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves with the URL `weft serve` prints once it listens; rejects if it exits first. */
function listeningUrl(w: Weft): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(w.stdout());
      if (match) {
        w.child.stdout?.off('data', check);
        resolve(match[1]!);
      }
    };
    w.child.stdout?.on('data', check);
    w.exited.then(({ code }) =>
      reject(new Error(`weft serve exited (${code}) before listening: ${w.stderr()}`)),
    );
  });
}

async function getStatus(url: string, path: string, init: { method?: 'GET' | 'POST'; token?: string } = {}) {
  const res = await request(new URL(path, url), {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.method === 'POST' ? { body: JSON.stringify({ project: 'serve-test' }) } : {}),
  });
  await res.body.dump();
  return res.statusCode;
}

describe('weft serve (built binary, child process)', () => {
  it('prints the real URL for --port 0, answers health, and on SIGTERM exits 0 leaving ./.weft/weft.db', async () => {
    const cwd = await tempDir();
    const w = weft(['serve', '--port', '0'], { cwd });
    const url = await listeningUrl(w);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
    expect(await getStatus(url, routes.health())).toBe(200);
    // Loopback without a token: the API is open.
    expect(await getStatus(url, routes.callQuery(), { method: 'POST' })).toBe(200);

    w.child.kill('SIGTERM');
    expect(await w.exited).toEqual({ code: ExitCode.ok, signal: null });
    expect(w.stdout()).toContain('Stopped.');
    expect((await stat(join(cwd, '.weft', 'weft.db'))).isFile()).toBe(true);
    expect(w.stderr()).toBe('');
  });

  it('stops the same way on SIGINT (Ctrl+C) and uses --db', async () => {
    const cwd = await tempDir();
    const db = join(cwd, 'nested', 'folder', 'traces.db');
    const w = weft(['serve', '--port', '0', '--db', db], { cwd });
    await listeningUrl(w);
    w.child.kill('SIGINT');
    expect(await w.exited).toEqual({ code: ExitCode.ok, signal: null });
    expect((await stat(db)).isFile()).toBe(true);
    expect(existsSync(join(cwd, '.weft'))).toBe(false);
  });

  it('requires the token from WEFT_TOKEN on /v1 routes', async () => {
    const cwd = await tempDir();
    const w = weft(['serve', '--port', '0'], { cwd, env: { WEFT_TOKEN: 'tok' } });
    const url = await listeningUrl(w);
    expect(await getStatus(url, routes.callQuery(), { method: 'POST' })).toBe(401);
    expect(await getStatus(url, routes.callQuery(), { method: 'POST', token: 'tok' })).toBe(200);
    w.child.kill('SIGTERM');
    expect((await w.exited).code).toBe(ExitCode.ok);
  });

  it('regression: warns that --token is visible in the process list, and not for WEFT_TOKEN', async () => {
    const cwd = await tempDir();
    const flag = weft(['serve', '--port', '0', '--token', 'tok-on-argv'], { cwd });
    const url = await listeningUrl(flag);
    expect(await getStatus(url, routes.callQuery(), { method: 'POST', token: 'tok-on-argv' })).toBe(200);
    expect(flag.stderr()).toMatch(
      /^weft: warning: --token puts the admin token in the process list.*WEFT_TOKEN/,
    );
    expect(flag.stderr()).not.toContain('tok-on-argv');
    flag.child.kill('SIGTERM');
    expect((await flag.exited).code).toBe(ExitCode.ok);

    const env = weft(['serve', '--port', '0'], { cwd, env: { WEFT_TOKEN: 'tok-in-env' } });
    await listeningUrl(env);
    env.child.kill('SIGTERM');
    expect((await env.exited).code).toBe(ExitCode.ok);
    expect(env.stderr()).toBe('');
  });

  it('regression: creates the database folder owner-only (0700; it was 0755)', async () => {
    const cwd = await tempDir();
    const w = weft(['serve', '--port', '0', '--db', join(cwd, 'data', 'traces.db')], { cwd });
    await listeningUrl(w);
    expect((await stat(join(cwd, 'data'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(cwd, 'data', 'traces.db'))).mode & 0o777).toBe(0o600);
    w.child.kill('SIGTERM');
    expect((await w.exited).code).toBe(ExitCode.ok);
  });

  it('refuses a non-loopback host without a token: exit 2, one line naming --token', async () => {
    const cwd = await tempDir();
    const w = weft(['serve', '--host', '0.0.0.0', '--port', '0'], { cwd });
    expect((await w.exited).code).toBe(ExitCode.usage);
    expect(w.stderr()).toMatch(
      /^weft: error: Refusing to listen on 0\.0\.0\.0 without a token.*--token.*\n$/,
    );
    expect(w.stdout()).toBe('');
  });

  it('exits 1 naming the port when it is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as { port: number };
      const w = weft(['serve', '--port', String(port), '--db', join(await tempDir(), 'w.db')], {
        cwd: tmpdir(),
      });
      expect((await w.exited).code).toBe(ExitCode.failure);
      expect(w.stderr()).toContain(`127.0.0.1:${port}`);
      expect(w.stderr()).toContain('EADDRINUSE');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('regression: with ClickHouse not running, exits 1 saying where it looked and what to check (it said "retry in 2 s" and did not)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const w = weft(['serve', '--port', '0', '--storage', `clickhouse://127.0.0.1:${port}/weft`], {
      cwd: await tempDir(),
    });
    expect((await w.exited).code).toBe(ExitCode.failure);
    expect(w.stderr()).toContain(
      `Could not reach ClickHouse at http://127.0.0.1:${port} (ECONNREFUSED); is it running, and is --storage right?`,
    );
    expect(w.stderr()).not.toContain('retry in');
  });

  it('exits 2 on a bad flag value without starting anything', async () => {
    const cwd = await tempDir();
    const w = weft(['serve', '--port', 'seventy'], { cwd });
    expect((await w.exited).code).toBe(ExitCode.usage);
    expect(w.stderr()).toMatch(/--port <port>.*'seventy'/);
    expect(existsSync(join(cwd, '.weft'))).toBe(false);
  });
});
