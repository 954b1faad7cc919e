import { type CallComplete, routes, traceSampled } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { callIdOf } from './support/calls.js';
import { get, post } from './support/http.js';
import { freshSingleServerStorageUrl } from './support/test-storage.js';

async function startServer() {
  const server = await startTestServer({
    // One server here: completions can be handed out as soon as they are written.
    storage: freshSingleServerStorageUrl(),
    register: false,
    monitoring: { scheduler: false },
  });
  onTestFinished(() => server.close());
  return server;
}

function answers(count: number, salt: number, offset = 0): CallComplete[] {
  return Array.from({ length: count }, (_, i) => {
    const n = offset + i;
    const id = callIdOf(n, salt);
    return {
      type: 'complete',
      id,
      traceId: id,
      parentId: null,
      opName: n % 5 === 4 ? 'other' : 'answer',
      startedAt: 1_790_000_000_000 + n * 1_000,
      inputs: { n },
      endedAt: 1_790_000_000_000 + n * 1_000 + 10,
      output: { text: `answer ${n}` },
    };
  });
}

/** Pulls and answers pages until the rule is idle; returns every call id handed out, in order. */
async function walk(url: string, project: string, name: string, limit = 7): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 100; i++) {
    const page = await post(url, routes.evaluatorPull(), { project, name, limit });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const calls = page.body.calls as { id: string; inputs: { n: number } }[];
    seen.push(...calls.map((c) => c.id));
    const results = calls.map((c) => ({ callId: c.id, scores: { even: c.inputs.n % 2 === 0 } }));
    const stored = await post(url, routes.evaluatorResults(), {
      project,
      name,
      version: page.body.version,
      cursor: page.body.cursor,
      results,
    });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    if (page.body.idle && calls.length === 0) return seen;
  }
  throw new Error('the walk did not end');
}

describe('online evaluators (code scorers over HTTP)', () => {
  it('hand out every sampled, matching call once, in completion order, and store results once', async () => {
    const server = await startServer();
    const project = 'eval-walk';
    const put = await post(server.url, routes.evaluatorPut(), {
      project,
      name: 'even',
      filter: { opName: 'answer' },
      sampleRate: 0.5,
      scorer: { type: 'code' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.version).toBe(1);
    const calls = answers(60, 1);
    expect((await post(server.url, routes.callBatch(), { project, items: calls })).status).toBe(200);
    const seen = await walk(server.url, project, 'even');
    const expected = calls
      .filter((c) => c.opName === 'answer' && traceSampled('even', c.traceId, 0.5))
      .map((c) => c.id);
    expect(seen.sort()).toEqual(expected.sort());
    const status = await get(server.url, routes.evaluatorList(project));
    expect(status.body.evaluators[0]).toMatchObject({ scored: expected.length, failed: 0, version: 1 });
  });

  it('stores the results of a page sent twice (its answer lost) once, and counts them once', async () => {
    const server = await startServer();
    const project = 'eval-twice';
    await post(server.url, routes.evaluatorPut(), { project, name: 'once', scorer: { type: 'code' } });
    const calls = answers(5, 2);
    await post(server.url, routes.callBatch(), { project, items: calls });
    const page = await post(server.url, routes.evaluatorPull(), { project, name: 'once', limit: 10 });
    expect(page.body.calls).toHaveLength(5);
    const body = {
      project,
      name: 'once',
      version: page.body.version,
      cursor: page.body.cursor,
      results: calls.map((c) => ({ callId: c.id, scores: { ok: true } })),
    };
    expect((await post(server.url, routes.evaluatorResults(), body)).body).toEqual({ stored: 5 });
    expect((await post(server.url, routes.evaluatorResults(), body)).body).toEqual({ stored: 0 });
    for (const call of calls) {
      expect((await get(server.url, routes.feedbackList(project, call.id))).body.feedback).toHaveLength(1);
    }
    expect((await get(server.url, routes.evaluatorList(project))).body.evaluators[0].scored).toBe(5);
    // And the walk goes on after it, with nothing left.
    expect((await post(server.url, routes.evaluatorPull(), { project, name: 'once' })).body).toMatchObject({
      calls: [],
      idle: true,
    });
  });

  it('backfills a past range oldest first with its progress, before calls completed since', async () => {
    const server = await startServer();
    const project = 'eval-backfill';
    const past = answers(30, 3);
    await post(server.url, routes.callBatch(), { project, items: past });
    // A new rule scores calls from its creation on: the past needs a backfill.
    await post(server.url, routes.evaluatorPut(), { project, name: 'late', scorer: { type: 'code' } });
    expect(await walk(server.url, project, 'late')).toEqual([]);
    const from = past[10]?.startedAt as number;
    const to = past[20]?.startedAt as number;
    const started = await post(server.url, routes.evaluatorBackfill(), { project, name: 'late', from, to });
    expect(started.body.backfill).toMatchObject({ from, to, progress: 0, done: false });
    const first = await post(server.url, routes.evaluatorPull(), { project, name: 'late', limit: 4 });
    await post(server.url, routes.evaluatorResults(), {
      project,
      name: 'late',
      version: first.body.version,
      cursor: first.body.cursor,
      results: first.body.calls.map((c: { id: string }) => ({ callId: c.id, scores: { ok: true } })),
    });
    const midway = (await get(server.url, routes.evaluatorList(project))).body.evaluators[0].backfill;
    expect(midway.progress).toBeGreaterThan(0);
    expect(midway.progress).toBeLessThan(1);
    const rest = await walk(server.url, project, 'late');
    const scored = [...first.body.calls.map((c: { id: string }) => c.id), ...rest];
    expect(scored).toEqual(past.slice(10, 20).map((c) => c.id));
    expect((await get(server.url, routes.evaluatorList(project))).body.evaluators[0].backfill).toMatchObject({
      progress: 1,
      done: true,
    });
  });

  it('answers bad rules, bad cursors and unknown rules with a clear 4xx', async () => {
    const server = await startServer();
    const project = 'eval-bad';
    const text = await post(server.url, routes.evaluatorPut(), {
      project,
      name: 'x',
      filter: { text: 'hello' },
      scorer: { type: 'code' },
    });
    expect(text.status).toBe(400);
    expect(text.body.error.message).toMatch(/full-text search cannot select calls/);
    const rate = await post(server.url, routes.evaluatorPut(), {
      project,
      name: 'x',
      sampleRate: 2,
      scorer: { type: 'code' },
    });
    expect(rate.status).toBe(400);
    expect(rate.body.error.path).toBe('sampleRate');
    const unknown = await post(server.url, routes.evaluatorPull(), { project, name: 'nope' });
    expect(unknown.status).toBe(404);
    await post(server.url, routes.evaluatorPut(), { project, name: 'x', scorer: { type: 'code' } });
    const cursor = await post(server.url, routes.evaluatorResults(), {
      project,
      name: 'x',
      version: 1,
      cursor: 'garbage',
      results: [],
    });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.path).toBe('cursor');
  });
});
