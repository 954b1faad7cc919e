import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type BatchItem, digestBytes, encodeMsgpack, routes, valueRef } from '@weft/protocol';
import { startClickHouse } from '@weft/server/testing';
import { startTestServer, type TestServer, tempDir } from '@weft/test-server';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { ExitCode } from '../src/exit/exit-code.js';
import { agentTrace } from './support/agent-trace.js';
import { captureIo } from './support/capture-io.js';
import { postItems, postJsonTo } from './support/post-items.js';

/*
 * `weft migrate sqlite:PATH <ClickHouse>`: a SQLite project with calls over
 * several pages, a running call, feedback, a deduplicated value, a file, a
 * dataset with a label and project settings is copied into ClickHouse 18.16
 * (a real clickhouse-server) and into ClickHouse 26 (chDB); a server on the
 * target then answers every read as the server on the SQLite file does. A
 * second run copies nothing; a run after the source took in more copies only those.
 */
const T0 = Date.UTC(2026, 10, 20, 9);
const id = (n: number) => `0193b1b2-c3d4-7e5f-8a9b-${n.toString(16).padStart(12, '0')}`;

interface Target {
  name: string;
  start(dir: string): Promise<{ url: string; dispose(): Promise<void> }>;
}

const TARGETS: Target[] = [
  {
    name: 'clickhouse-server 18.16',
    async start() {
      const server = await startClickHouse();
      return { url: `clickhouse://127.0.0.1:${server.httpPort}/weft`, dispose: () => server.dispose() };
    },
  },
  {
    name: 'ClickHouse 26 (chDB)',
    async start(dir) {
      return { url: `chdb:${join(dir, 'chdb')}`, dispose: async () => {} };
    },
  },
];

async function weft(argv: string[]) {
  const io = captureIo({});
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

async function getJson(url: string, path: string): Promise<unknown> {
  const res = await request(`${url}${path}`);
  const body = res.headers['content-type']?.toString().includes('json')
    ? await res.body.json()
    : Buffer.from(await res.body.arrayBuffer()).toString('base64');
  return { status: res.statusCode, body };
}

/** Every call of a project, oldest first, paged as a client would. */
async function allCalls(url: string, project: string): Promise<unknown[]> {
  const calls: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = (await postJsonTo(url, routes.callQuery(), {
      project,
      sort: { field: 'startedAt', direction: 'asc' },
      limit: 1_000,
      ...(cursor === undefined ? {} : { cursor }),
    })) as { calls: unknown[]; nextCursor?: string | null };
    calls.push(...page.calls);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return calls;
}

/** `value` without its `createdAt` and `updatedAt` fields, at any depth. */
function withoutTimes(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v) => (key === 'createdAt' || key === 'updatedAt' ? undefined : v)),
  );
}

/** The rows of dataset `golden`'s latest version, through the table its value names. */
async function datasetRows(url: string): Promise<unknown> {
  const read = (await getJson(url, routes.objectRead('alpha', 'golden', 'latest'))) as {
    body: { value: { rows: string } };
  };
  const digest = read.body.value.rows.split('/').at(-1) as string;
  return getJson(url, `${routes.tableRows('alpha', digest)}?offset=0&limit=100`);
}

/** What a user reads back: projects, every call, a call with values and a file, feedback, the dataset, settings. */
async function answers(url: string, file: string): Promise<Record<string, unknown>> {
  return {
    projects: await getJson(url, routes.projectList()),
    alpha: await allCalls(url, 'alpha'),
    beta: await allCalls(url, 'beta'),
    withValue: await getJson(url, routes.call('alpha', id(1))),
    running: await getJson(url, routes.call('alpha', id(3))),
    feedback: await getJson(url, routes.feedbackList('alpha', id(1))),
    file: await getJson(url, routes.fileRead('alpha', file)),
    // The contract stores an object version or a label at the time of the put: the copy's are the migration's.
    objects: withoutTimes(await getJson(url, routes.objectList('alpha'))),
    versions: withoutTimes(await getJson(url, routes.objectVersions('alpha', 'golden'))),
    labels: withoutTimes(await getJson(url, routes.objectLabels('alpha', 'golden'))),
    settings: await getJson(url, routes.projectSettings('alpha')),
    datasetRows: await datasetRows(url),
  };
}

describe.each(TARGETS)('weft migrate from SQLite into $name', (target) => {
  let dir: string;
  let source: TestServer;
  let engine: Awaited<ReturnType<Target['start']>>;
  let file = '';

  // A ClickHouse server starts and 2,400 calls are stored here: past the hook default.
  beforeAll(async () => {
    dir = await tempDir('weft-migrate-');
    engine = await target.start(dir);
    source = await startTestServer({ dbPath: join(dir, 'weft.db'), register: false });
    // 2,401 calls: three pages of the migration.
    await postItems(source.url, 'alpha', agentTrace({ steps: 100, toolsPerStep: 22 }).items);
    const fileRes = await request(`${source.url}${routes.fileCreate('alpha')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from('%PDF-1.4 a small report'),
    });
    file = ((await fileRes.body.json()) as { digest: string }).digest;
    const bytes = encodeMsgpack({ role: 'system', content: 'You are terse. '.repeat(100) });
    const digest = digestBytes(bytes);
    const items: unknown[] = [
      { type: 'value', digest, bytes },
      {
        type: 'complete',
        id: id(1),
        traceId: id(1),
        parentId: null,
        opName: 'answer',
        startedAt: T0,
        endedAt: T0 + 40,
        inputs: { system: valueRef(digest), report: `weft:///alpha/file/${file}` },
        output: 'short',
        attributes: { 'user.id': 'u1' },
        sessionId: 's1',
      },
      {
        type: 'complete',
        id: id(2),
        traceId: id(2),
        parentId: null,
        opName: 'answer',
        displayName: 'failed answer',
        startedAt: T0 + 1,
        endedAt: T0 + 30,
        inputs: {},
        exception: { name: 'Error', message: 'boom' },
      },
      {
        type: 'start',
        id: id(3),
        traceId: id(3),
        parentId: null,
        opName: 'answer',
        startedAt: T0 + 2,
        inputs: {},
      },
      { type: 'feedback', id: id(10), callId: id(1), name: 'thumbs', value: true, createdAt: T0 + 100 },
      {
        type: 'feedback',
        id: id(11),
        callId: id(1),
        name: 'note',
        value: 'ok',
        comment: 'fine',
        createdAt: T0 + 101,
      },
    ];
    const res = await request(`${source.url}${routes.callBatch()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/msgpack' },
      body: encodeMsgpack({ project: 'alpha', items }),
    });
    expect(res.statusCode, await res.body.text()).toBe(200);
    await postJsonTo(source.url, routes.datasetFromCalls(), {
      project: 'alpha',
      name: 'golden',
      callIds: [id(1), id(2)],
    });
    await postJsonTo(source.url, routes.objectLabelSet(), {
      project: 'alpha',
      name: 'golden',
      label: 'prod',
      version: 1,
    });
    const settings = await request(`${source.url}${routes.projectSettings('alpha')}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ retentionDays: 30, keepRules: [] }),
    });
    expect(settings.statusCode, await settings.body.text()).toBe(200);
    await postItems(source.url, 'beta', [
      {
        type: 'complete',
        id: id(20),
        traceId: id(20),
        parentId: null,
        opName: 'b',
        startedAt: T0,
        endedAt: T0 + 1,
        inputs: { x: 1 },
      },
    ] as BatchItem[]);
    await source.stop();
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await engine?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('copies every project so the target answers every read as the source does, and a second run copies nothing', async () => {
    const first = await weft(['migrate', `sqlite:${source.dbPath}`, engine.url]);
    expect(first.err).toContain('alpha: 2404 calls copied');
    expect(first.out).toContain(
      'alpha: 2404 calls, 2 feedback, 1 values, 1 files, 1 objects, 1 tables, 2 tableRows, 1 labels, 1 documents',
    );
    expect(first.code).toBe(ExitCode.ok);

    await source.start();
    const expected = await answers(source.url, file);
    await source.stop();
    // The reads compared hold what was seeded (equal 404s would prove nothing).
    expect(expected).toMatchObject({
      withValue: { status: 200 },
      running: { status: 200, body: { status: 'running' } },
      file: { status: 200 },
      datasetRows: { status: 200, body: { rowCount: 2 } },
      feedback: { status: 200, body: { feedback: [{ name: 'thumbs' }, { name: 'note' }] } },
    });
    expect(expected.alpha).toHaveLength(2404);
    const copy = await startTestServer({ storage: engine.url, register: false });
    try {
      const actual = await answers(copy.url, file);
      for (const [read, answer] of Object.entries(expected)) expect(actual[read], read).toEqual(answer);
    } finally {
      await copy.close();
    }

    const again = await weft(['migrate', `sqlite:${source.dbPath}`, engine.url]);
    expect(again.out).toBe('alpha: nothing to copy\nbeta: nothing to copy\nDone: 2 project(s).\n');
    expect(again.code).toBe(ExitCode.ok);
  }, 180_000);

  it('copies only the calls the source took in since the last run', async () => {
    await source.start();
    await postItems(source.url, 'alpha', [
      {
        type: 'complete',
        id: id(30),
        traceId: id(30),
        parentId: null,
        opName: 'late',
        startedAt: Date.UTC(2026, 10, 28),
        endedAt: Date.UTC(2026, 10, 28) + 5,
        inputs: {},
      },
    ] as BatchItem[]);
    await source.stop();
    const run = await weft(['migrate', `sqlite:${source.dbPath}`, engine.url]);
    expect(run.out).toBe('alpha: 1 calls\nbeta: nothing to copy\nDone: 2 project(s).\n');
  }, 60_000);

  it('refuses a SQLite source that does not exist, naming the path', async () => {
    const run = await weft(['migrate', `sqlite:${join(dir, 'missing.db')}`, engine.url]);
    expect(run.code).toBe(ExitCode.usage);
    expect(run.err).toContain(`No SQLite database at ${join(dir, 'missing.db')}`);
  });
});
