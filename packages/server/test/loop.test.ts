import { routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from './support/calls.js';
import { get, post } from './support/http.js';
import { startTestServer } from '@weft/test-server';
import { freshTestStorageUrl } from './support/test-storage.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ storage: freshTestStorageUrl(), register: false });
});
afterAll(() => server.close());

const feedbackId = (n: number) => callIdOf(n, 0xfb);
const ingest = (project: string, items: unknown[]) =>
  post(server.url, routes.callBatch(), { project, items }, { format: 'msgpack' });
const query = (body: Record<string, unknown>) => post(server.url, routes.callQuery(), body);
const ids = (reply: { body: { calls: { id: string }[] } }) => reply.body.calls.map((c) => c.id).sort();

describe('feedback', () => {
  const project = 'loop-feedback';

  it('keeps feedback that arrives before its call and attaches it when the call arrives', async () => {
    const early = {
      type: 'feedback',
      id: feedbackId(1),
      callId: callIdOf(1),
      name: 'thumbs',
      value: true,
      createdAt: 5,
      source: 'user',
    };
    expect((await ingest(project, [early])).status).toBe(200);
    expect((await get(server.url, routes.call(project, callIdOf(1)))).status).toBe(404);
    // The same item again (a retry) is stored once.
    expect((await ingest(project, [early, completeOf(1)])).status).toBe(200);
    const call = await get(server.url, routes.call(project, callIdOf(1)));
    expect(call.body.feedback).toEqual([
      { id: feedbackId(1), name: 'thumbs', value: true, source: 'user', createdAt: 5 },
    ]);
  });

  it('gives and lists feedback by route, keeping booleans, numbers and labels apart', async () => {
    await ingest(project, [completeOf(2), completeOf(3), completeOf(4)]);
    const given = [
      { callId: callIdOf(2), name: 'score', value: 1, comment: 'fine' },
      { callId: callIdOf(3), name: 'score', value: 0.5 },
      { callId: callIdOf(3), name: 'tone', value: 'rude' },
      { callId: callIdOf(4), name: 'thumbs', value: false },
    ];
    for (const f of given) {
      const reply = await post(server.url, routes.feedbackCreate(), { project, ...f });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ name: f.name, value: f.value });
    }
    const listed = await get(server.url, routes.feedbackList(project, callIdOf(3)));
    expect(listed.body.feedback.map((f: { name: string; value: unknown }) => [f.name, f.value])).toEqual([
      ['score', 0.5],
      ['tone', 'rude'],
    ]);
    // value 1 (a number) is not `true` (a boolean).
    expect(ids(await query({ project, feedback: { name: 'score', value: 1 } }))).toEqual([callIdOf(2)]);
    expect(ids(await query({ project, feedback: { value: true } }))).toEqual([callIdOf(1)]);
    expect(ids(await query({ project, feedback: { name: 'thumbs', value: false } }))).toEqual([callIdOf(4)]);
    expect(ids(await query({ project, feedback: { name: 'score' } }))).toEqual([callIdOf(2), callIdOf(3)]);
    expect(ids(await query({ project, feedback: {} }))).toEqual([
      callIdOf(1),
      callIdOf(2),
      callIdOf(3),
      callIdOf(4),
    ]);
    const page = await query({ project, feedback: { name: 'tone' } });
    expect(page.body.calls[0].feedback).toHaveLength(2);
  });

  it('answers bad feedback with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ callId: callIdOf(2), name: 'x', value: { nested: 1 } }, 'value'],
      [{ callId: callIdOf(2), name: '', value: 1 }, 'name'],
      [{ callId: 'not-a-uuid', name: 'x', value: 1 }, 'callId'],
      [{ callId: callIdOf(2), name: 'x', value: '' }, 'value'],
    ];
    for (const [body, field] of cases) {
      const reply = await post(server.url, routes.feedbackCreate(), { project, ...body });
      expect(reply.status).toBe(400);
      expect(reply.body.error.path).toBe(field);
    }
    const batch = await ingest(project, [
      completeOf(9),
      { type: 'feedback', id: feedbackId(9), callId: callIdOf(9), name: 'x', value: null, createdAt: 1 },
    ]);
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({ index: 1, path: 'items.1.value' });
  });
});

describe('sessions', () => {
  const project = 'loop-sessions';

  it('stores sessionId, filters by it, and lists sessions with their totals', async () => {
    const usage = (tokens: number, costUsd?: number) => ({
      usage: {
        m: {
          requests: 1,
          inputTokens: tokens,
          outputTokens: 0,
          totalTokens: tokens,
          ...(costUsd === undefined ? {} : { costUsd }),
        },
      },
      ...(costUsd === undefined ? {} : { costUsd }),
    });
    await ingest(project, [
      completeOf(1, { sessionId: 's-a', summary: usage(10, 0.5) }),
      completeOf(2, {
        sessionId: 's-a',
        traceId: callIdOf(1),
        parentId: callIdOf(1),
        summary: usage(10, 0.5),
      }),
      completeOf(3, {
        sessionId: 's-a',
        startedAt: 1_700_000_000_100,
        endedAt: 1_700_000_000_110,
        summary: { ...usage(5), status: 'error' },
        exception: { name: 'E', message: 'x' },
      }),
      startOf(4, { sessionId: 's-b', startedAt: 1_700_000_001_000 }),
      completeOf(5),
    ]);
    const reply = await post(server.url, routes.sessionQuery(), { project });
    expect(reply.status).toBe(200);
    expect(reply.body.sessions).toEqual([
      {
        sessionId: 's-b',
        turns: 1,
        firstStartedAt: 1_700_000_001_000,
        lastActivityAt: 1_700_000_001_000,
        totalTokens: 0,
        errors: 0,
      },
      {
        sessionId: 's-a',
        turns: 2,
        firstStartedAt: 1_700_000_000_001,
        lastActivityAt: 1_700_000_000_100 + 10,
        totalTokens: 15,
        costUsd: 0.5,
        errors: 1,
      },
    ]);
    const turns = await query({
      project,
      sessionId: 's-a',
      parentId: null,
      sort: { field: 'startedAt', direction: 'asc' },
    });
    expect(turns.body.calls.map((c: { id: string; sessionId: string }) => [c.id, c.sessionId])).toEqual([
      [callIdOf(1), 's-a'],
      [callIdOf(3), 's-a'],
    ]);
    const paged = await post(server.url, routes.sessionQuery(), { project, limit: 1 });
    const next = await post(server.url, routes.sessionQuery(), {
      project,
      limit: 1,
      cursor: paged.body.nextCursor,
    });
    expect([paged.body.sessions[0].sessionId, next.body.sessions[0].sessionId, next.body.nextCursor]).toEqual(
      ['s-b', 's-a', null],
    );
  });

  it('lists projects', async () => {
    const reply = await get(server.url, routes.projectList());
    expect(reply.body.projects).toContainEqual({
      name: 'loop-sessions',
      callCount: 5,
      lastCallAt: 1_700_000_001_000,
    });
  });
});

describe('attribute, user and tag filters', () => {
  const project = 'loop-attributes';

  it('ANDs equality on strings, numbers and booleans, matches array elements, and follows a re-sent start', async () => {
    await ingest(project, [
      completeOf(1, { attributes: { env: 'prod', tier: 2, beta: true, 'user.id': 'u1', tags: ['a', 'b'] } }),
      completeOf(2, { attributes: { env: 'prod', tier: '2', beta: false, user: { id: 'u2' }, tags: ['b'] } }),
      completeOf(3, { attributes: { env: 'dev', tier: 2 } }),
      endOf(4),
    ]);
    expect(ids(await query({ project, attributes: { env: 'prod' } }))).toEqual([callIdOf(1), callIdOf(2)]);
    expect(ids(await query({ project, attributes: { env: 'prod', tier: 2 } }))).toEqual([callIdOf(1)]);
    expect(ids(await query({ project, attributes: { tier: '2' } }))).toEqual([callIdOf(2)]);
    expect(ids(await query({ project, attributes: { beta: false } }))).toEqual([callIdOf(2)]);
    expect(ids(await query({ project, userId: 'u2' }))).toEqual([callIdOf(2)]);
    expect(ids(await query({ project, tag: 'b' }))).toEqual([callIdOf(1), callIdOf(2)]);
    expect(ids(await query({ project, tag: ['a', 'b'] }))).toEqual([callIdOf(1)]);
    // The end arrived first; the start brings the attributes.
    await ingest(project, [startOf(4, { attributes: { env: 'prod' } })]);
    expect(ids(await query({ project, attributes: { env: 'prod' } }))).toEqual([
      callIdOf(1),
      callIdOf(2),
      callIdOf(4),
    ]);
    const bad = await query({ project, attributes: { env: { nested: 1 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe('attributes.env');
  });
});

describe('full-text search', () => {
  const project = 'loop-search';

  it('searches inputs, outputs and names, highlights the match, and treats FTS syntax as text', async () => {
    await ingest(project, [
      completeOf(1, {
        displayName: 'greeting',
        inputs: { messages: [{ role: 'user', content: 'Where is the Eiffel tower?' }] },
        output: 'In Paris.',
      }),
      completeOf(2, { inputs: { q: 'weather in Oslo' }, output: { text: 'Cold and "snowy" AND dark' } }),
      completeOf(3, { opName: 'summarize', inputs: { doc: 'nothing here' }, output: 'ok' }),
    ]);
    expect(ids(await query({ project, text: 'eiffel' }))).toEqual([callIdOf(1)]);
    expect(ids(await query({ project, text: 'paris' }))).toEqual([callIdOf(1)]);
    expect(ids(await query({ project, text: 'GREETING' }))).toEqual([callIdOf(1)]);
    expect(ids(await query({ project, text: 'greet' }))).toEqual([]);
    expect(ids(await query({ project, text: 'summarize' }))).toEqual([callIdOf(3)]);
    const hit = await query({ project, text: 'Oslo' });
    expect(hit.body.calls[0].snippet).toContainEqual({ text: 'Oslo', match: true });
    for (const text of [
      '"snowy" AND',
      'NEAR(cold dark)',
      'cold*',
      '-dark',
      'snowy"',
      'col:d',
      '(',
      '***',
      'AND',
      'OR NOT',
    ]) {
      const reply = await query({ project, text });
      expect(reply.status, text).toBe(200);
    }
    expect(ids(await query({ project, text: '"snowy" AND' }))).toEqual([callIdOf(2)]);
    expect(ids(await query({ project, text: 'paris oslo' }))).toEqual([]);
  });
});

describe('labels', () => {
  const project = 'loop-labels';

  it('sets, moves and reads labels, and reads a version by label', async () => {
    const { digestValue } = await import('@weft/protocol');
    for (const text of ['v one', 'v two']) {
      await post(server.url, routes.objectCreate(), {
        project,
        name: 'Prompt',
        value: { text },
        digest: digestValue({ text }),
      });
    }
    const set = await post(server.url, routes.objectLabelSet(), {
      project,
      name: 'Prompt',
      label: 'production',
      version: 1,
    });
    expect(set.body).toMatchObject({ label: 'production', version: 1 });
    expect((await get(server.url, routes.objectRead(project, 'Prompt', 'production'))).body.value).toEqual({
      text: 'v one',
    });
    await post(server.url, routes.objectLabelSet(), {
      project,
      name: 'Prompt',
      label: 'production',
      digest: digestValue({ text: 'v two' }),
    });
    expect((await get(server.url, routes.objectRead(project, 'Prompt', 'production'))).body.value).toEqual({
      text: 'v two',
    });
    const labels = await get(server.url, routes.objectLabels(project, 'Prompt'));
    expect(labels.body.labels).toMatchObject([{ label: 'production', version: 2 }]);
    expect((await get(server.url, routes.objectRead(project, 'Prompt', 'staging'))).status).toBe(404);
    expect(
      (await post(server.url, routes.objectLabelSet(), { project, name: 'Prompt', label: 'x', version: 9 }))
        .status,
    ).toBe(404);
    const bad = await post(server.url, routes.objectLabelSet(), {
      project,
      name: 'Prompt',
      label: 'latest',
      version: 1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe('label');
  });
});

describe('datasets from calls', () => {
  const project = 'loop-datasets';

  it('publishes the calls as a dataset version whose rows point back to them, appending when asked', async () => {
    await ingest(project, [
      completeOf(1, { inputs: { q: 'a' }, output: 'A' }),
      completeOf(2, { inputs: { q: 'b' }, output: 'B' }),
    ]);
    const first = await post(server.url, routes.datasetFromCalls(), {
      project,
      name: 'picked',
      callIds: [callIdOf(2)],
    });
    expect(first.body).toMatchObject({ name: 'picked', version: 1, rowCount: 1, created: true });
    const second = await post(server.url, routes.datasetFromCalls(), {
      project,
      name: 'picked',
      callIds: [callIdOf(1)],
      append: true,
    });
    expect(second.body).toMatchObject({ version: 2, rowCount: 2 });
    const version = await get(server.url, routes.objectRead(project, 'picked', 'latest'));
    // The rows' keys in the order a dataset row from a call is written, kept across appends.
    expect(version.body.value.columns).toEqual(['q', 'expected', 'sourceCall']);
    const tableDigest = String(version.body.value.rows).split('/').pop() as string;
    const rows = await get(server.url, `${routes.tableRows(project, tableDigest)}?offset=0&limit=10`);
    expect(rows.body.rows.map((r: { value: unknown }) => r.value)).toEqual([
      { q: 'b', expected: 'B', sourceCall: `weft:///${project}/call/${callIdOf(2)}` },
      { q: 'a', expected: 'A', sourceCall: `weft:///${project}/call/${callIdOf(1)}` },
    ]);
    const missing = await post(server.url, routes.datasetFromCalls(), {
      project,
      name: 'picked',
      callIds: [callIdOf(77)],
    });
    expect(missing.status).toBe(404);
  });
});
