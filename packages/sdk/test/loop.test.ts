import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { Evaluation, scorers } from '@weft/sdk/eval';
import { replayOutbox } from '../src/outbox-admin/index.js';
import { resetWeft } from '../src/testing/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
});
afterAll(() => resetWeft());

const init = (project: string, extra: Partial<weft.WeftOptions> = {}) =>
  weft.init({ project, url: server.url, outbox: false, handleExit: false, ...extra });

describe('sessions', () => {
  it('puts every call inside withSession, at any depth, in the session; an inner withSession wins', async () => {
    const client = init('sdk-sessions');
    const sessionChild = weft.op(async function child() {
      return weft.currentCall()?.sessionId;
    });
    const sessionTurn = weft.op(async function turn(message: string) {
      return `${message}:${await sessionChild()}`;
    });
    expect(await weft.withSession('thread-1', () => sessionTurn('hi'))).toBe('hi:thread-1');
    await weft.withSession('thread-1', () => weft.withSession('thread-2', () => sessionTurn('inner')));
    await sessionTurn('none');
    expect((await weft.flush()).failed).toBe(0);
    const inThread1 = await client.getCalls({ sessionId: 'thread-1' }).toArray();
    expect(inThread1.map((c) => c.opName).sort()).toEqual(['child', 'turn']);
    expect(await client.getCalls({ sessionId: 'thread-2', parentId: null }).toArray()).toHaveLength(1);
    const loose = (await client.getCalls({ parentId: null }).toArray()).find(
      (c) => c.inputs.message === 'none',
    );
    expect(loose?.sessionId).toBeUndefined();
    expect(() => weft.withSession('', () => 1)).toThrow(
      expect.objectContaining({ code: 'WEFT_INVALID_OPTIONS' }),
    );
  });
});

describe('feedback', () => {
  it('delivers feedback with the calls, flush waits for it, and queries filter by it', async () => {
    const client = init('sdk-feedback');
    const answered: string[] = [];
    const answerOp = weft.op(async function answer(question: string) {
      answered.push(weft.currentCall()?.id ?? '');
      return question.toUpperCase();
    });
    await answerOp('a');
    const id = answered[0] as string;
    // Given before the call has been sent: the server keeps it until the call arrives.
    const feedbackId = weft.feedback(id, { name: 'thumbs', value: true, comment: 'good', source: 'user' });
    weft.feedback(id, { name: 'score', value: 0.8 });
    await answerOp('b');
    expect(await weft.flush()).toMatchObject({ failed: 0, pending: 0 });
    const call = await client.getCall(id);
    expect(call?.feedback).toEqual([
      expect.objectContaining({
        id: feedbackId,
        name: 'thumbs',
        value: true,
        comment: 'good',
        source: 'user',
      }),
      expect.objectContaining({ name: 'score', value: 0.8 }),
    ]);
    const liked = await client.getCalls({ feedback: { name: 'thumbs', value: true } }).toArray();
    expect(liked.map((c) => c.id)).toEqual([id]);
  });

  it('throws WEFT_INVALID_FEEDBACK naming the field, and sends nothing', async () => {
    init('sdk-feedback-bad');
    const callId = '0190a5f0-0000-7000-8000-000000000001';
    const cases: [string, unknown][] = [
      ['callId', ['nope', { name: 'x', value: 1 }]],
      ['value', [callId, { name: 'x', value: { a: 1 } }]],
      ['value', [callId, { name: 'x', value: Number.NaN }]],
      ['name', [callId, { name: '', value: 1 }]],
    ];
    for (const [field, args] of cases) {
      const [c, f] = args as [string, weft.FeedbackInput];
      expect(() => weft.feedback(c, f)).toThrow(
        expect.objectContaining({ code: 'WEFT_INVALID_FEEDBACK', field }),
      );
    }
    expect(await weft.flush()).toMatchObject({ sent: 0, failed: 0 });
  });

  it('keeps feedback in the durable outbox while the server is down, and it arrives on replay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-feedback-outbox-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const local = await startTestServer();
    const client = weft.init({
      project: 'sdk-feedback-outbox',
      url: local.url,
      outbox: true,
      outboxDir: dir,
      handleExit: false,
      maxAttempts: 1,
    });
    const traced = weft.op(async function traced() {
      return weft.currentCall()?.id ?? '';
    });
    const id = await traced();
    await client.flush();
    await local.stop();
    weft.feedback(id, { name: 'thumbs', value: false });
    // The server stays down: the flush waits for it until its deadline, then leaves the feedback in the outbox.
    expect(await client.flush({ timeoutMs: 500 })).toMatchObject({ failed: 0, pending: 0 });
    await client.shutdown({ timeoutMs: 0 });
    await local.start();
    const replay = await replayOutbox({ dir, url: local.url, onWarning: () => {} });
    expect(replay.folders.reduce((n, f) => n + f.sent, 0)).toBe(1);
    const reader = weft.init({
      project: 'sdk-feedback-outbox',
      url: local.url,
      outbox: false,
      handleExit: false,
    });
    expect((await reader.getCall(id))?.feedback).toMatchObject([{ name: 'thumbs', value: false }]);
  });
});

describe('attributes and search from the SDK', () => {
  it('filters by attributes, user and tag, and searches inputs and outputs', async () => {
    const client = init('sdk-filters');
    const chat = weft.op(async function chat(prompt: string) {
      return `Answer about ${prompt}`;
    });
    await weft.withAttributes({ env: 'prod', 'user.id': 'ana', tags: ['vip', 'eu'] }, () =>
      chat('lighthouses'),
    );
    await weft.withAttributes({ env: 'dev' }, () => chat('volcanoes'));
    await weft.flush();
    const names = async (options: weft.GetCallsOptions) =>
      (await client.getCalls(options).toArray()).map((c) => c.inputs.prompt);
    expect(await names({ attributes: { env: 'prod' } })).toEqual(['lighthouses']);
    expect(await names({ userId: 'ana' })).toEqual(['lighthouses']);
    expect(await names({ tag: 'eu' })).toEqual(['lighthouses']);
    expect(await names({ text: 'volcanoes' })).toEqual(['volcanoes']);
    const [hit] = await client.getCalls({ text: 'answer lighthouses' }).toArray();
    expect(hit?.snippet?.filter((p) => p.match).map((p) => p.text.toLowerCase())).toContain('lighthouses');
  });
});

describe('objects by name and labels', () => {
  it("reads 'Name', 'Name:latest', 'Name:vN' and 'Name:label', and moves a label with setLabel", async () => {
    init('sdk-labels');
    const v1 = await weft.publish({ template: 'Hello {name}' }, { name: 'Greeting' });
    await weft.publish({ template: 'Hi {name}!' }, { name: 'Greeting' });
    expect(await weft.get('Greeting')).toEqual({ template: 'Hi {name}!' });
    expect(await weft.get('Greeting:latest')).toEqual({ template: 'Hi {name}!' });
    expect(await weft.get('Greeting:v1')).toEqual({ template: 'Hello {name}' });
    expect(await weft.setLabel(v1, 'production')).toMatchObject({ label: 'production', version: 1 });
    expect(await weft.get('Greeting:production')).toEqual({ template: 'Hello {name}' });
    await weft.setLabel('Greeting:v2', 'production');
    expect(await weft.get('Greeting:production')).toEqual({ template: 'Hi {name}!' });
    await expect(weft.get('Greeting:staging')).rejects.toMatchObject({ code: 'WEFT_NOT_FOUND' });
    await expect(weft.setLabel(v1, 'v2')).rejects.toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      option: 'label',
    });
  });
});

describe('datasets from calls', () => {
  it('publishes the calls with feedback as a dataset whose rows point back to them, and evaluates it', async () => {
    const client = init('sdk-from-calls');
    const ids: string[] = [];
    const doubleOp = weft.op(async function double(x: number) {
      ids.push(weft.currentCall()?.id ?? '');
      return x * 2;
    });
    for (const value of [1, 2, 3]) await doubleOp(value);
    weft.feedback(ids[0] as string, { name: 'keep', value: true });
    weft.feedback(ids[2] as string, { name: 'keep', value: true });
    await weft.flush();
    const dataset = await weft.Dataset.fromCalls(
      {
        feedback: { name: 'keep', value: true },
        opName: 'double',
        sort: { field: 'startedAt', direction: 'asc' },
      },
      { name: 'kept' },
    );
    expect(dataset.rows).toEqual([
      { x: 1, expected: 2, sourceCall: `weft:///sdk-from-calls/call/${ids[0]}` },
      { x: 3, expected: 6, sourceCall: `weft:///sdk-from-calls/call/${ids[2]}` },
    ]);
    const mapped = await weft.Dataset.fromCalls(
      { opName: 'double' },
      { name: 'mapped', map: (c) => ({ input: c.inputs.x }) },
    );
    expect(mapped.rows.every((r) => typeof r.sourceCall === 'string' && typeof r.input === 'number')).toBe(
      true,
    );
    expect(await weft.get('kept')).toMatchObject({ rowCount: 2 });
    const evaluation = new Evaluation({ name: 'kept-eval', dataset, scorers: [scorers.exactMatch()] });
    const summary = await evaluation.evaluate((row: Record<string, unknown>) => (row.x as number) * 2);
    expect(summary).toMatchObject({ rows: 2 });
    expect(JSON.stringify(summary)).toContain('exactMatch');
    void client;
  });
});
