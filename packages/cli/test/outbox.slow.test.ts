import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { runCli } from '../src/cli/run-cli.js';
import { fetchCalls } from '../src/server-api/index.js';
import { ExitCode } from '../src/exit/exit-code.js';
import { captureIo } from './support/capture-io.js';

let root: string;
/** A loopback address nothing listens on: a server that is down. */
let downUrl: string;
let server: TestServer;
let guarded: TestServer;
const TOKEN = 'outbox-test-token';

/** A port that was free a moment ago; nothing in this test listens on it. */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'weft-cli-outbox-'));
  downUrl = `http://127.0.0.1:${await unusedPort()}`;
  server = await startTestServer({ register: false });
  guarded = await startTestServer({ token: TOKEN, register: false });
});
afterAll(async () => {
  await Promise.all([server?.close(), guarded?.close()]);
  await rm(root, { recursive: true, force: true });
});

let outboxCount = 0;
/** A fresh outbox root (`./.weft/outbox` in a real app) for one test. */
function outboxRoot(): string {
  return join(root, `outbox-${++outboxCount}`);
}

/**
 * Runs the real SDK against the down server with `count` calls of `project`,
 * so they spill into `<outboxDir>/<project>`. Returns the call ids and the
 * client, still running (it holds the outbox's lock) until `shutdown()`.
 */
async function spill(outboxDir: string, project: string, count: number) {
  const client = weft.init({
    project,
    url: downUrl,
    outboxDir: join(outboxDir, project),
    handleExit: false,
    maxAttempts: 1,
    flushIntervalMs: 0,
  });
  onTestFinished(() => client.shutdown({ timeoutMs: 0 }).then(() => undefined));
  const step = weft.op(function step(i: number) {
    return { i, id: weft.currentCall()?.id ?? '' };
  });
  const ids = Array.from({ length: count }, (_, i) => step(i).id);
  // The server stays down: the flush waits for it until its deadline, then leaves the calls in the outbox.
  const flushed = await client.flush({ timeoutMs: 500 });
  expect(flushed).toMatchObject({ sent: 0, spilled: count, failed: 0, pending: 0 });
  return { ids, client };
}

/** Spills and then stops the SDK, as an application that exited while the server was down. */
async function spillAndExit(outboxDir: string, project: string, count: number): Promise<string[]> {
  const { ids, client } = await spill(outboxDir, project, count);
  await client.shutdown({ timeoutMs: 0 });
  return ids;
}

async function cli(argv: string[], env: Record<string, string> = {}) {
  const io = captureIo(env);
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

interface StatusEntry {
  project: string;
  segments: number;
  records: number;
  bytes: number;
  oldestSegmentAtMs: number | null;
  lock: { state: string; pid?: number };
}

async function statusJson(dir: string): Promise<StatusEntry[]> {
  const { code, out, err } = await cli(['outbox', 'status', '--dir', dir, '--json']);
  expect({ code, err }).toEqual({ code: ExitCode.ok, err: '' });
  return JSON.parse(out) as StatusEntry[];
}

const segmentFiles = async (dir: string) =>
  (await readdir(dir)).filter((name) => name.endsWith('.seg')).sort();

/** Every id the server holds for `project`, one entry per listed call. */
async function idsOnServer(target: TestServer, project: string, token?: string): Promise<string[]> {
  const { calls } = await fetchCalls({ url: target.url, token }, { project }, 100_000);
  return calls.map((call) => call.id);
}

describe('weft outbox status', () => {
  it('shows the records the SDK spilled while the server was down, per project', async () => {
    const dir = outboxRoot();
    await spillAndExit(dir, 'ob-status-a', 300);
    await spillAndExit(dir, 'ob-status-b', 120);

    const table = await cli(['outbox', 'status', '--dir', dir]);
    expect(table.code).toBe(ExitCode.ok);
    expect(table.err).toBe('');
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^project\s+segments\s+records\s+size\s+oldest \(UTC\)\s+lock$/);
    expect(lines[2]).toMatch(/^ob-status-a\s+1\s+300\s+\d+\.\d KiB\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+-$/);
    expect(lines[3]).toMatch(/^ob-status-b\s+1\s+120\s+/);
    expect(table.out).toContain('420 record(s) waiting in 2 outbox folder(s)');

    const entries = await statusJson(dir);
    expect(entries.map(({ project, records, lock }) => ({ project, records, lock }))).toEqual([
      { project: 'ob-status-a', records: 300, lock: { state: 'none' } },
      { project: 'ob-status-b', records: 120, lock: { state: 'none' } },
    ]);
    expect(entries[0]!.bytes).toBeGreaterThan(300 * 20);
    expect(entries[0]!.oldestSegmentAtMs).toEqual(expect.any(Number));

    const one = await statusJson(join(dir, 'ob-status-b'));
    expect(one.map((e) => [e.project, e.records])).toEqual([['ob-status-b', 120]]);
  });

  it('says so when there is no outbox', async () => {
    const missing = join(root, 'no-such-outbox');
    const { code, out } = await cli(['outbox', 'status', '--dir', missing]);
    expect(code).toBe(ExitCode.ok);
    expect(out).toBe(`No outbox under ${missing}: nothing is waiting to be sent.\n`);
    expect(await statusJson(missing)).toEqual([]);
  });
});

describe('weft outbox replay', () => {
  it('delivers every spilled call exactly once, deletes the segments, and status then shows 0', async () => {
    const dir = outboxRoot();
    const idsA = await spillAndExit(dir, 'ob-replay-a', 400);
    const idsB = await spillAndExit(dir, 'ob-replay-b', 150);
    expect(await segmentFiles(join(dir, 'ob-replay-a'))).not.toEqual([]);

    const { code, out, err } = await cli(['outbox', 'replay', '--dir', dir, '--url', server.url]);
    expect({ code, err }).toEqual({ code: ExitCode.ok, err: '' });
    expect(out).toMatch(/^ob-replay-a\s+400\s+0$/m);
    expect(out).toMatch(/^ob-replay-b\s+150\s+0$/m);
    expect(out).toContain(`Sent 550 record(s) to ${server.url}; 0 remaining.`);

    for (const [project, ids] of [
      ['ob-replay-a', idsA],
      ['ob-replay-b', idsB],
    ] as const) {
      const onServer = await idsOnServer(server, project);
      expect(onServer).toHaveLength(ids.length); // no duplicates listed
      expect(new Set(onServer)).toEqual(new Set(ids)); // every id present
      expect(await segmentFiles(join(dir, project))).toEqual([]);
    }
    expect(
      (await statusJson(dir)).map(({ project, segments, records }) => ({ project, segments, records })),
    ).toEqual([
      { project: 'ob-replay-a', segments: 0, records: 0 },
      { project: 'ob-replay-b', segments: 0, records: 0 },
    ]);

    // A second replay has nothing left to send and changes nothing on the server.
    const again = await cli(['outbox', 'replay', '--dir', dir, '--url', server.url]);
    expect(again.code).toBe(ExitCode.ok);
    expect(again.out).toContain('Sent 0 record(s)');
    expect(await idsOnServer(server, 'ob-replay-a')).toHaveLength(400);
  });

  it('replays one project with --project and leaves the others', async () => {
    const dir = outboxRoot();
    const ids = await spillAndExit(dir, 'ob-only-a', 50);
    await spillAndExit(dir, 'ob-only-b', 60);

    const { code, out } = await cli(['outbox', 'replay', '--dir', dir, '--project', 'ob-only-a'], {
      WEFT_URL: server.url,
    });
    expect(code).toBe(ExitCode.ok);
    expect(out).not.toContain('ob-only-b');
    expect(new Set(await idsOnServer(server, 'ob-only-a'))).toEqual(new Set(ids));
    expect(await idsOnServer(server, 'ob-only-b')).toEqual([]);
    expect((await statusJson(dir)).map((e) => [e.project, e.records])).toEqual([
      ['ob-only-a', 0],
      ['ob-only-b', 60],
    ]);
  });

  it('prints the result as JSON with --json', async () => {
    const dir = outboxRoot();
    await spillAndExit(dir, 'ob-json', 30);
    const { code, out } = await cli(['outbox', 'replay', '--dir', dir, '--json'], { WEFT_URL: server.url });
    expect(code).toBe(ExitCode.ok);
    expect(JSON.parse(out)).toMatchObject({
      sent: 30,
      remaining: 0,
      folders: [{ project: 'ob-json', sent: 30, remaining: 0 }],
    });
  });

  it('exits 1 when the server is unreachable and keeps every record', async () => {
    const dir = outboxRoot();
    await spillAndExit(dir, 'ob-down', 200);
    const before = await segmentFiles(join(dir, 'ob-down'));

    const { code, out, err } = await cli(['outbox', 'replay', '--dir', dir, '--url', downUrl]);
    expect(code).toBe(ExitCode.failure);
    expect(out).toMatch(/^ob-down\s+0\s+200$/m);
    expect(err).toMatch(
      new RegExp(
        `^weft: error: Server unreachable at ${downUrl} \\(ECONNREFUSED\\); 200 record\\(s\\) kept in the outbox under .*weft outbox replay\` again\\.\\n$`,
      ),
    );
    expect(await segmentFiles(join(dir, 'ob-down'))).toEqual(before);
    expect((await statusJson(dir)).map((e) => e.records)).toEqual([200]);
  });

  it('exits 3 when the server refuses the token, keeps the records, and delivers them with the right one', async () => {
    const dir = outboxRoot();
    const ids = await spillAndExit(dir, 'ob-auth', 80);

    for (const token of [undefined, 'wrong-token']) {
      const argv = ['outbox', 'replay', '--dir', dir, '--url', guarded.url];
      const { code, err } = await cli(token ? [...argv, '--token', token] : argv);
      expect(code).toBe(ExitCode.authRefused);
      expect(err).toMatch(
        /refused the credentials \(HTTP 401\); 80 record\(s\) kept.*--token or WEFT_API_KEY/,
      );
      expect(err).not.toContain('wrong-token');
      expect((await statusJson(dir)).map((e) => e.records)).toEqual([80]);
    }

    const ok = await cli(['outbox', 'replay', '--dir', dir, '--url', guarded.url], { WEFT_API_KEY: TOKEN });
    expect(ok.code).toBe(ExitCode.ok);
    expect(new Set(await idsOnServer(guarded, 'ob-auth', TOKEN))).toEqual(new Set(ids));
    expect((await statusJson(dir)).map((e) => e.records)).toEqual([0]);
  });

  it('refuses an outbox a live process holds, sends nothing, and replays once it has exited', async () => {
    const dir = outboxRoot();
    // This test process is the live application: its SDK holds the outbox lock until shutdown.
    const { ids, client } = await spill(dir, 'ob-locked', 70);

    const status = await cli(['outbox', 'status', '--dir', dir]);
    expect(status.code).toBe(ExitCode.ok);
    expect(status.out).toMatch(
      new RegExp(`^ob-locked\\s+\\d+\\s+70\\s+.*held by pid ${process.pid} on `, 'm'),
    );
    expect((await statusJson(dir))[0]!.lock).toMatchObject({ state: 'held', pid: process.pid });

    const refused = await cli(['outbox', 'replay', '--dir', dir, '--url', server.url]);
    expect(refused.code).toBe(ExitCode.failure);
    expect(refused.err).toMatch(
      new RegExp(
        `^weft: error: Outbox .*ob-locked is in use by live process ${process.pid}; .*Nothing was replayed\\.\\n$`,
      ),
    );
    expect(refused.out).toBe('');
    expect(await idsOnServer(server, 'ob-locked')).toEqual([]);

    await client.shutdown({ timeoutMs: 2_000 });
    expect((await statusJson(dir))[0]!.lock).toEqual({ state: 'none' });
    const replayed = await cli(['outbox', 'replay', '--dir', dir, '--url', server.url]);
    expect(replayed.code).toBe(ExitCode.ok);
    expect(new Set(await idsOnServer(server, 'ob-locked'))).toEqual(new Set(ids));
  });
});
