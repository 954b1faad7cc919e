import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type ServeOptions, serveCommand } from './serve-command.js';
import { serve } from './serve.js';

const tokenA = 'cli-project-token-a1';

async function status(url: string, path: string, project: string, token: string): Promise<number> {
  const response = await fetch(new URL(path, url), {
    method: 'POST',
    body: JSON.stringify({ project }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  return response.status;
}

describe('serve --tokens-file', () => {
  it('takes the tokens file from the flag, else WEFT_TOKENS_FILE', () => {
    const tokensFile = (flags: Record<string, unknown>, env: Record<string, string>) =>
      (serveCommand.resolve([], flags, env).options as ServeOptions).tokensFile;
    expect(tokensFile({ tokensFile: 'a.json' }, { WEFT_TOKENS_FILE: 'b.json' })).toBe('a.json');
    expect(tokensFile({}, { WEFT_TOKENS_FILE: 'b.json' })).toBe('b.json');
    expect(tokensFile({}, {})).toBeUndefined();
  });

  it('takes --allowed-hosts, else WEFT_ALLOWED_HOSTS, as lower-case names, and refuses a name with a port', () => {
    const allowedHosts = (flags: Record<string, unknown>, env: Record<string, string>) =>
      (serveCommand.resolve([], flags, env).options as ServeOptions).allowedHosts;
    expect(allowedHosts({}, { WEFT_ALLOWED_HOSTS: 'Traces.Example.com, 10.0.0.5,::1' })).toEqual([
      'traces.example.com',
      '10.0.0.5',
      '::1',
    ]);
    expect(allowedHosts({ allowedHosts: ['a.example'] }, { WEFT_ALLOWED_HOSTS: 'b.example' })).toEqual([
      'a.example',
    ]);
    expect(allowedHosts({}, {})).toBeUndefined();
    expect(() => allowedHosts({}, { WEFT_ALLOWED_HOSTS: 'traces.example.com:7420' })).toThrow(
      /WEFT_ALLOWED_HOSTS/,
    );
  });

  it('serves each project token its own projects only, and never prints a token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-cli-serve-tokens-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const tokensFile = join(dir, 'tokens.json');
    await writeFile(tokensFile, JSON.stringify({ [tokenA]: ['projA'] }));
    const stop = new AbortController();
    let out = '';
    let onListening: (url: string) => void = () => {};
    const listening = new Promise<string>((resolve) => (onListening = resolve));
    const io = {
      stdout: {
        write: (chunk: string) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match?.[1]) onListening(match[1]);
        },
      },
      stderr: { write: (chunk: string) => (out += chunk) },
      env: {},
      signal: stop.signal,
    };
    const running = serve(
      { host: '127.0.0.1', port: 0, dbPath: join(dir, 'w.db'), token: undefined, tokensFile },
      io,
    );
    onTestFinished(async () => {
      stop.abort();
      await running.catch(() => {});
    });
    const url = await Promise.race([
      listening,
      running.then((code) => Promise.reject(new Error(`serve exited ${code}: ${out}`))),
    ]);
    expect(await status(url, routes.callQuery(), 'projA', tokenA)).toBe(200);
    expect(await status(url, routes.callQuery(), 'projB', tokenA)).toBe(403);
    expect(await status(url, routes.callQuery(), 'projA', 'other')).toBe(401);
    stop.abort();
    expect(await running).toBe(0);
    expect(out).toContain('project tokens from the tokens file');
    expect(out).not.toContain(tokenA);
  });
});

describe('serve --workers', () => {
  const workers = (flags: Record<string, unknown>, env: Record<string, string>) =>
    (serveCommand.resolve([], flags, env).options as ServeOptions).workers;

  it('takes --workers, else WEFT_WORKERS, else 1; auto is the available cores', () => {
    expect(workers({ workers: 3 }, { WEFT_WORKERS: '2' })).toBe(3);
    expect(workers({}, { WEFT_WORKERS: '2' })).toBe(2);
    expect(workers({}, {})).toBe(1);
    expect(workers({}, { WEFT_WORKERS: 'auto' })).toBe(availableParallelism());
    expect(workers({ workers: 'auto' }, {})).toBe(availableParallelism());
    expect(() => workers({}, { WEFT_WORKERS: '0' })).toThrow(/WEFT_WORKERS.*at least 1, or auto/);
  });

  it.each([
    ['SQLite', undefined, /SQLite has one writer per database file/],
    ['chDB', 'chdb:', /chDB runs ClickHouse inside the one process/],
  ])(
    'refuses more than one worker on %s, naming why, before opening anything',
    async (_name, storage, why) => {
      const dir = await mkdtemp(join(tmpdir(), 'weft-cli-serve-workers-'));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      const io = {
        stdout: { write: () => {} },
        stderr: { write: () => {} },
        env: {},
        signal: new AbortController().signal,
      };
      const dbPath = join(dir, 'sub', 'w.db');
      // chDB's folder, in the test's own folder: created only if it were opened.
      const url = storage === undefined ? undefined : `${storage}${join(dir, 'sub')}`;
      const refused = serve(
        { host: '127.0.0.1', port: 0, dbPath, storage: url, token: undefined, workers: 2 },
        io,
      );
      await expect(refused).rejects.toMatchObject({
        code: 'WEFT_USAGE',
        message: expect.stringMatching(why),
      });
      await expect(refused).rejects.toThrow(/--workers 2 needs ClickHouse servers/);
      expect(existsSync(join(dir, 'sub'))).toBe(false);
    },
  );
});
