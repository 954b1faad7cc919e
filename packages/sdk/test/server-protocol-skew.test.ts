import { rm } from 'node:fs/promises';
import { decodeMsgpack, routes } from '@weft/protocol';
import * as weft from '@weft/sdk';
import { tempDir } from '@weft/test-server';
import { expect, it, onTestFinished } from 'vitest';
import { FaultProxy, listServerCalls, useFileServer } from './support/index.js';
import { extTypesIn, OldServer, type OldVersionAnswer } from './support/transport/old-server.js';

// Compact value markers (ext 0x57) and call ids (ext 0x55) are read by servers of protocol 2 on,
// value items' compact digests (ext 0x44) and complete records without their implied latencyMs
// from 3. An SDK in front of an older server must send the forms it reads: an older server
// answers 400 to a compact body (those records were dropped as rejected), and would store a
// complete record without its latency.

const CALLS = 6;
/** Large enough to be deduplicated: the second and later calls carry a value marker in its place. */
const PROMPT = 'the same long system prompt, sent with every call. '.repeat(60);

const server = useFileServer();

/** Traces `count` calls, every third of them failed (its status is `error`); their ids. */
function traceCalls(from = 0, count = CALLS): string[] {
  const ids: string[] = [];
  const answer = weft.op(function answer(prompt: string, n: number) {
    ids.push(weft.currentCall()?.id ?? '');
    if (n % 3 === 2) throw new Error(`answer ${n} failed`);
    return { n, length: prompt.length };
  });
  for (let n = 0; n < count; n++) {
    try {
      answer(PROMPT, from + n);
    } catch {
      // Recorded as a failed call.
    }
  }
  return ids;
}

/** Each record's status is the one its exception implies, and some are errors. */
function expectStatusesOf(calls: readonly object[]): void {
  const records = calls as { exception?: unknown; summary?: { status?: unknown } | null }[];
  expect(records.map((r) => r.summary?.status)).toEqual(
    records.map((r) => (r.exception === undefined || r.exception === null ? 'success' : 'error')),
  );
  expect(records.some((r) => r.summary?.status === 'error')).toBe(true);
}

async function startOld(versionAnswer: OldVersionAnswer): Promise<OldServer> {
  const old = await OldServer.start(versionAnswer);
  onTestFinished(() => old.close());
  return old;
}

async function clientOf(
  url: string,
  project: string,
  options: weft.WeftOptions = {},
): Promise<weft.WeftClient> {
  const outboxDir = await tempDir();
  const client = weft.init({ project, url, outboxDir, handleExit: false, ...options });
  onTestFinished(async () => {
    await client.shutdown({ timeoutMs: 2_000 });
    await rm(outboxDir, { recursive: true, force: true });
  });
  return client;
}

/**
 * Each call's records arrived exactly once, with string ids, value markers as
 * `{ _weft: 'value', digest }` maps and every summary's latencyMs and status.
 */
function expectEachCallOnceInV1Forms(old: OldServer, ids: string[]): void {
  expect(old.refusedCompact).toBe(0);
  const arrivedIds = new Set([...old.arrivals.keys()].map((key) => key.split(' ')[1]));
  expect([...arrivedIds].sort()).toEqual([...ids].sort());
  expect([...old.arrivals.values()].every((count) => count === 1)).toBe(true);
  const records = old.items.filter((item) => item.type !== 'value');
  expect(records.every((item) => typeof item.id === 'string' && typeof item.traceId === 'string')).toBe(true);
  expect(JSON.stringify(records)).toMatch(/"_weft":"value","digest":"[\w-]{43}"/);
  const summaries = records.map((item) => item.summary as { latencyMs?: unknown } | undefined);
  expect(summaries.filter((summary) => summary !== undefined)).toHaveLength(ids.length);
  expect(summaries.every((summary) => summary === undefined || typeof summary.latencyMs === 'number')).toBe(
    true,
  );
  expectStatusesOf(records.filter((item) => item.summary !== undefined));
  const values = old.items.filter((item) => item.type === 'value');
  expect(values.length).toBeGreaterThan(0);
  expect(values.every((item) => typeof item.digest === 'string')).toBe(true);
}

for (const versionAnswer of ['protocol-1', 'protocol-2', 'protocol-3', 'not-found'] as const) {
  it(`an SDK newer than its server (version probe: ${versionAnswer}) delivers every call once in the forms the old server reads`, async () => {
    const old = await startOld(versionAnswer);
    const client = await clientOf(old.url, `skew-${versionAnswer}`, { maxBatchItems: 2 });
    const ids = traceCalls();
    const result = await client.flush();
    expect(result).toMatchObject({ sent: CALLS, failed: 0, spilled: 0, pending: 0 });
    expectEachCallOnceInV1Forms(old, ids);
    // One probe for the client, however many batches.
    expect(old.versionProbes).toBe(1);
  });
}

it('a current server gets compact bodies, after one version probe per client', async () => {
  const proxy = await FaultProxy.start({ upstream: server.url, record: true });
  onTestFinished(() => proxy.close());
  const client = await clientOf(proxy.url, 'skew-current', { maxBatchItems: 2 });
  const ids = traceCalls();
  expect(await client.flush()).toMatchObject({ sent: CALLS, failed: 0, spilled: 0 });
  const probes = proxy.received.filter((request) => request.path === routes.version());
  const batches = proxy.received.filter((request) => request.path === routes.callBatch());
  expect(probes).toHaveLength(1);
  expect(batches.length).toBeGreaterThan(1);
  const types = new Set(batches.flatMap((batch) => extTypesIn(new Uint8Array(batch.body))));
  expect([...types].sort()).toEqual([0x55, 0x56, 0x57]);
  // Complete records leave out the latency (endedAt − startedAt) and status (their exception's) they imply.
  const sent = batches.flatMap(
    (batch) => (decodeMsgpack(batch.body) as { items: Record<string, unknown>[] }).items,
  );
  const completes = sent.filter((item) => item.type === 'complete');
  expect(completes.map((item) => item.id).sort()).toEqual([...ids].sort());
  const summaries = completes.map((item) => item.summary as Record<string, unknown>);
  expect(summaries.every((summary) => summary.latencyMs === undefined && summary.status === undefined)).toBe(
    true,
  );
  const stored = await listServerCalls(server.url, 'skew-current');
  expect(stored.map((call) => call.id).sort()).toEqual([...ids].sort());
  // The records left their implied latency and status out; the server put them back.
  expect(stored.every((call) => typeof call.summary?.latencyMs === 'number')).toBe(true);
  expectStatusesOf(stored);
});

it('calls spilled while the server was unreachable reach it once it is back, old, transcoded by the outbox replay', async () => {
  const old = await startOld('protocol-1');
  old.down = true;
  const client = await clientOf(old.url, 'skew-down-then-old');
  const spilled = traceCalls();
  // Unreachable: the probe decides nothing, the batches take the failure path to the outbox.
  expect(await client.flush({ timeoutMs: 1_500 })).toMatchObject({ sent: 0, failed: 0, spilled: CALLS });
  expect(old.arrivals.size).toBe(0);

  old.down = false;
  const later = traceCalls(CALLS, 1);
  // The later call may reach the server directly or through the outbox (the circuit may still be open).
  expect(await client.flush()).toMatchObject({ failed: 0, pending: 0 });
  expectEachCallOnceInV1Forms(old, [...spilled, ...later]);
  expect(client.diagnostics().outbox?.records ?? 0).toBe(0);
});

it('a server replaced by an older one after the probe: the refused compact batch is sent again transcoded, nothing lost', async () => {
  const old = await startOld('protocol-1');
  old.current = true;
  const client = await clientOf(old.url, 'skew-downgraded');
  const before = traceCalls();
  expect(await client.flush()).toMatchObject({ sent: CALLS, failed: 0 });
  old.current = false;
  const after = traceCalls(CALLS);
  expect(await client.flush()).toMatchObject({ sent: CALLS, failed: 0, spilled: 0 });
  expect(old.versionProbes).toBe(2);
  expect(old.refusedCompact).toBe(1);
  const ids = new Set([...old.arrivals.keys()].map((key) => key.split(' ')[1]));
  expect([...ids].sort()).toEqual([...before, ...after].sort());
});
