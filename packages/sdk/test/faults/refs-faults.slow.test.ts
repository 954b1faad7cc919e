import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { type ServerProcess, startServerProcess } from '@weft/test-server';
import { type ChildRun, FaultProxy, runChild } from '../support/index.js';
import { outboxLeft } from './outbox-left.js';
import { checkRefs } from './refs-check.js';
import { runRefsWorkload } from './refs-workload.js';
import { tempDir } from './run-fault.js';
import { checkServer } from './server-check.js';

// The fault matrix for what calls reference: published objects, datasets and
// files travel beside the calls (docs/transport.md). Under each fault every
// call arrives exactly once AND every ref in every call resolves.

const childScript = fileURLToPath(new URL('./fixtures/refs-child.ts', import.meta.url));
const CALLS = 200;

/** Every request but the health probe and reads: objects, files, tables and call batches all meet the fault. */
const everyWrite = ({ method, path }: { method: string; path: string }) =>
  method === 'POST' && path !== routes.health();

async function startEnv(): Promise<{ server: ServerProcess; proxy: FaultProxy }> {
  const server = await startServerProcess();
  const proxy = await FaultProxy.start({ upstream: server.url, match: everyWrite });
  onTestFinished(() => proxy.close());
  return { server, proxy };
}

interface ChildDone {
  ids: string[];
  guide: string;
  flushed: weft.FlushResult;
}

async function runRefsChild(env: Record<string, string>): Promise<{ child: ChildRun; done: ChildDone }> {
  const child = await runChild(childScript, { env });
  onTestFinished(() => child.kill('SIGKILL'));
  let line: string;
  try {
    line = await child.waitForLine(/^done /);
  } catch (error) {
    throw new Error(`${String(error)}\nstderr: ${child.stderr().slice(-2_000)}`);
  }
  return { child, done: JSON.parse(line.slice('done '.length)) as ChildDone };
}

async function expectDeliveredAndResolved(
  server: ServerProcess,
  project: string,
  ids: string[],
  extraRefs: string[],
): Promise<void> {
  const check = await checkServer(server.url, project, ids);
  const refs = await checkRefs(server.url, project, extraRefs);
  expect({
    missing: check.missing.length,
    duplicates: check.duplicates.length,
    unresolved: refs.unresolved,
  }).toEqual({
    missing: 0,
    duplicates: 0,
    unresolved: [],
  });
  // One file per call, the dataset's table, the guide object (and the dataset's version when published).
  expect(refs.refs).toBeGreaterThanOrEqual(ids.length + 2);
}

describe('refs under faults: every call once, every ref resolves', () => {
  it('server paused (every write held), then resumed; publish returns its ref meanwhile', async () => {
    const { server, proxy } = await startEnv();
    const project = 'refs-paused';
    const client = weft.init({
      project,
      url: proxy.url,
      outboxDir: await tempDir('weft-refs-paused-'),
      handleExit: false,
    });
    onTestFinished(async () => {
      await client.shutdown({ timeoutMs: 2_000 });
    });
    proxy.pause();
    const workload = await runRefsWorkload({ tag: 'paused', calls: CALLS });
    await proxy.waitFor((c) => c.held >= 1);
    proxy.resume();
    const flushed = await weft.flush({ timeoutMs: 40_000 });
    expect(flushed).toMatchObject({ pending: 0, failed: 0, objectsFailed: 0 });
    expect(outboxLeft(client)).toBe(0);
    await expectDeliveredAndResolved(server, project, workload.ids, [workload.guide]);
  }, 90_000);

  it('server SIGKILLed before the run, restarted after it', async () => {
    const { server, proxy } = await startEnv();
    const project = 'refs-sigkill';
    const client = weft.init({
      project,
      url: proxy.url,
      outboxDir: await tempDir('weft-refs-kill-'),
      handleExit: false,
    });
    onTestFinished(async () => {
      await client.shutdown({ timeoutMs: 2_000 });
    });
    await server.kill('SIGKILL');
    const workload = await runRefsWorkload({ tag: 'sigkill', calls: CALLS });
    await proxy.waitFor((c) => c.upstreamErrors >= 1);
    // The flush starts while the server is down and waits for it; restarted, it gets everything
    // (what went to the outbox meanwhile is replayed) before the flush resolves.
    const flushing = weft.flush({ timeoutMs: 40_000 });
    await server.start();
    expect(await flushing).toMatchObject({ pending: 0, failed: 0, objectsFailed: 0 });
    expect(outboxLeft(client)).toBe(0);
    await expectDeliveredAndResolved(server, project, workload.ids, [workload.guide]);
  }, 90_000);

  it('server down for a whole run; a fresh short process started after it delivers that outbox before its flush resolves', async () => {
    const server = await startServerProcess();
    await server.kill('SIGKILL');
    const outboxDir = await tempDir('weft-refs-down-');
    const env = { PROJECT: 'refs-down', WEFT_URL: server.url, OUTBOX_DIR: outboxDir };
    const first = await runRefsChild({ ...env, TAG: 'down', CALLS: String(CALLS), FLUSH_TIMEOUT_MS: '4000' });
    expect(first.done.flushed).toMatchObject({ sent: 0, spilled: CALLS, failed: 0, pending: 0 });
    expect(await first.child.exited).toMatchObject({ code: 0 });

    await server.start();
    const second = await runRefsChild({ ...env, TAG: 'after', CALLS: '1' });
    expect(await second.child.exited).toMatchObject({ code: 0 });
    // Every call and every record the first run kept: the replay finished before flush() resolved.
    expect(second.done.flushed.replayed).toBeGreaterThanOrEqual(CALLS);
    await expectDeliveredAndResolved(
      server,
      'refs-down',
      [...first.done.ids, ...second.done.ids],
      [first.done.guide, second.done.guide],
    );
  }, 90_000);

  it('two processes of one project during an outage each keep a durable outbox; a third replays both', async () => {
    const server = await startServerProcess();
    await server.kill('SIGKILL');
    const outboxDir = await tempDir('weft-refs-two-');
    const env = {
      PROJECT: 'refs-two',
      WEFT_URL: server.url,
      OUTBOX_DIR: outboxDir,
      HOLD: '1',
      FLUSH_TIMEOUT_MS: '4000',
    };
    const a = await runRefsChild({ ...env, TAG: 'a', CALLS: String(CALLS) });
    const b = await runRefsChild({ ...env, TAG: 'b', CALLS: String(CALLS) });
    // Both alive, both durable: nothing failed, and the second wrote to a folder of its own.
    expect(a.done.flushed).toMatchObject({ spilled: CALLS, failed: 0, pending: 0 });
    expect(b.done.flushed).toMatchObject({ spilled: CALLS, failed: 0, pending: 0 });
    expect((await readdir(outboxDir)).filter((name) => name.startsWith('proc-'))).toHaveLength(1);
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
    await Promise.all([a.child.exited, b.child.exited]);

    await server.start();
    const c = await runRefsChild({
      PROJECT: 'refs-two',
      WEFT_URL: server.url,
      OUTBOX_DIR: outboxDir,
      TAG: 'c',
      CALLS: '1',
    });
    expect(await c.child.exited).toMatchObject({ code: 0 });
    expect(c.done.flushed.replayed).toBeGreaterThanOrEqual(2 * CALLS);
    await expectDeliveredAndResolved(
      server,
      'refs-two',
      [...a.done.ids, ...b.done.ids, ...c.done.ids],
      [a.done.guide, b.done.guide, c.done.guide],
    );
    // The dead process's folder is gone once replayed.
    expect((await readdir(outboxDir)).filter((name) => name.startsWith('proc-'))).toEqual([]);
  }, 120_000);
});
