import { objectListResponse, routes } from '@weft/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { createClient, resetWeft } from '../src/testing/index.js';
import { type HoldProxy, startHoldProxy } from './support/hold-proxy.js';
import { startTestServer } from '@weft/test-server';

class Leaf extends weft.WeftObject {
  constructor(public readonly n: number) {
    super();
  }
}
class Branch extends weft.WeftObject {
  constructor(
    public readonly n: number,
    public readonly leaf: Leaf,
  ) {
    super();
  }
}
class Root extends weft.WeftObject {
  constructor(
    public readonly n: number,
    public readonly branch: Branch,
  ) {
    super();
  }
}

/**
 * Three levels of nested objects per call. Every call's walk creates the full
 * chain of pending digests (Leaf → Branch → Root → call) in the pool, whatever
 * the contents; the contents repeat across calls (500 roots, 50 branches, 5
 * leaves) only so the server is not asked for 15,000 separate object writes
 * on this small shared machine. Every distinct version must be stored.
 */
const nested = (i: number) => new Root(i % 500, new Branch(i % 50, new Leaf(i % 5)));

let server: Awaited<ReturnType<typeof startTestServer>>;
let proxy: HoldProxy;
beforeAll(async () => {
  server = await startTestServer({ register: false });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await resetWeft();
  await proxy?.close();
});

async function countCalls(client: weft.WeftClient): Promise<number> {
  let n = 0;
  for await (const page of client.getCalls({ pageSize: 1_000 }).pages()) n += page.length;
  return n;
}

async function objectVersions(project: string): Promise<Record<string, number>> {
  const res = await fetch(server.url + routes.objectList(project));
  const { objects } = objectListResponse.parse(await res.json());
  return Object.fromEntries(objects.map((o) => [o.name, o.versionCount]));
}

const CALLS = 5_000;

describe.each([1, 2])('starvation with a pool of %i slot(s)', (concurrency) => {
  it(`drains ${CALLS.toLocaleString()} calls with 3 levels of nested objects after a paused server resumes`, async () => {
    proxy = await startHoldProxy(server.url);
    proxy.pause();
    const project = `starve-${concurrency}`;
    const client = weft.init({ project, url: proxy.url, concurrency, outbox: false });
    const make = weft.op(async function makeNested(i: number) {
      return nested(i);
    });
    const results = await Promise.all(Array.from({ length: CALLS }, (_, i) => make(i)));
    // Every op returned its value while the server had answered nothing.
    expect(results.map((r) => r.n)).toEqual(Array.from({ length: CALLS }, (_, i) => i % 500));
    expect(proxy.answered).toBe(0);
    // The pipeline reached the network while paused (records and objects are held there).
    await proxy.whenHeld(2);
    expect(proxy.answered).toBe(0);

    proxy.resume();
    const flushed = await client.flush();
    expect(flushed).toMatchObject({
      sent: CALLS,
      failed: 0,
      spilled: 0,
      pending: 0,
      objects: 3 * CALLS,
      objectsFailed: 0,
    });
    expect(await countCalls(client)).toBe(CALLS);
    expect(await objectVersions(project)).toEqual({ Root: 500, Branch: 50, Leaf: 5 });
    expect(client.diagnostics()).toMatchObject({
      inFlightCalls: 0,
      pendingUnits: 0,
      pool: { running: 0, waiting: 0 },
    });
    const [call] = await client.getCalls({ limit: 1 }).toArray();
    expect(call?.output).toMatch(/^weft:\/\/\/starve-\d\/object\/Root:/);
    const root = (await client.get(call?.output as string)) as { branch: string };
    expect(root.branch).toMatch(/object\/Branch:/);
  });
});

describe('the deadlock the pipeline avoids', () => {
  // `awaitPendingInSlot` makes schedule hold its slot while awaiting digests
  // that other pool tasks produce. With one slot the nested object's save is
  // queued behind the very task waiting for it: nothing ever drains.
  it('does not drain when schedule awaits pending digests inside its slot, and does when it chains', async () => {
    proxy = await startHoldProxy(server.url);
    const run = async (awaitPendingInSlot: boolean) => {
      const client = createClient({
        project: `deadlock-${awaitPendingInSlot}`,
        url: proxy.url,
        concurrency: 1,
        outbox: false,
        awaitPendingInSlot,
      });
      const make = client.op(async function makeNested(i: number) {
        return nested(i);
      });
      await Promise.all(Array.from({ length: 20 }, (_, i) => make(i)));
      const result = await client.flush({ timeoutMs: 2_000 });
      const diagnostics = client.diagnostics();
      await client.shutdown({ timeoutMs: 0 });
      return { result, diagnostics };
    };
    const broken = await run(true);
    expect(broken.result.pending).toBeGreaterThan(0);
    expect(broken.result.sent).toBe(0);
    // The only slot is taken and the object save it waits for is queued behind it.
    expect(broken.diagnostics.pool).toMatchObject({ running: 1 });
    expect(broken.diagnostics.pool.waiting).toBeGreaterThan(0);

    const correct = await run(false);
    expect(correct.result).toMatchObject({ pending: 0, sent: 20, objects: 60, objectsFailed: 0 });
  });
});
