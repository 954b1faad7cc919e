import { routes } from '@weft/protocol';
import { startTestServer, type TestServer } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../src/index.js';
import { callIdOf, completeOf } from './support/calls.js';
import { get, post, put } from './support/http.js';
import { COMMON_WORD, storeScenario } from './support/lifecycle-scenario.js';
import { freshTestStorageUrl, testStorageKind } from './support/test-storage.js';

/*
 * Retention (issue 28), enforced by the server's own background passes
 * while calls keep arriving: expired traces go whole, kept ones (feedback,
 * keep rules) stay whole with their values and files, and nothing fresh is
 * touched.
 */
const admin = 'admin-token-0123456789';
const scoped = 'project-token-0123456789';
const DAY_MS = 86_400_000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    storage: freshTestStorageUrl(),
    token: admin,
    projectTokens: { [scoped]: ['settled'] },
    // The server default, for projects that set none; passes every 200 ms.
    retentionDays: 30,
    retentionIntervalMs: 200,
    register: false,
  });
});
afterAll(() => server.close());

const asAdmin = { token: admin };

/** Every call matching `text`, page by page (a loaded machine ingests more than one page of fresh calls). */
async function search(project: string, text: string): Promise<{ id: string }[]> {
  const calls: { id: string }[] = [];
  let cursor: string | null = null;
  do {
    const query: Record<string, unknown> = {
      project,
      text,
      limit: 1_000,
      ...(cursor === null ? {} : { cursor }),
    };
    const reply: { status: number; body: { calls: { id: string }[]; nextCursor: string | null } } =
      await post(server.url, routes.callQuery(), query, asAdmin);
    expect(reply.status).toBe(200);
    calls.push(...reply.body.calls);
    cursor = reply.body.nextCursor;
  } while (cursor !== null);
  return calls;
}

/** Waits for the background passes to record a retention deletion in the project's audit log. */
async function retentionRan(project: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const log = await get(server.url, routes.deletionAudit(project), asAdmin);
      expect(log.body.entries.some((entry: { actor: string }) => entry.actor === 'retention')).toBe(true);
    },
    { timeout: 60_000, interval: 100 },
  );
}

/**
 * Ingests fresh calls (started now) in batches until `stop` resolves;
 * returns the ids it stored.
 */
async function ingestUntil(project: string, stop: Promise<void>): Promise<string[]> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  const ids: string[] = [];
  let n = 0;
  do {
    const batch = Array.from({ length: 20 }, () => {
      const id = callIdOf(++n, 9);
      const now = Date.now();
      return completeOf(0, {
        id,
        traceId: id,
        startedAt: now,
        endedAt: now + 1,
        inputs: { q: `fresh ${COMMON_WORD}` },
      });
    });
    const reply = await post(server.url, routes.callBatch(), { project, items: batch }, asAdmin);
    expect(reply.status).toBe(200);
    ids.push(...batch.map((call) => call.id));
  } while (!stopped);
  return ids;
}

describe(`retention (${testStorageKind()})`, () => {
  it('deletes expired traces whole in the background while ingest runs, keeping kept traces with their values and files', async () => {
    const project = 'swept';
    // No retention while the old traces and their feedback are stored.
    expect(
      (await put(server.url, routes.projectSettings(project), { retentionDays: null }, asAdmin)).status,
    ).toBe(200);
    const traces = await storeScenario(server.url, project, {
      count: 12,
      start: Date.now() - 60 * DAY_MS,
      token: admin,
    });
    // Feedback on a child keeps its whole trace; the keep rule keeps user2's traces.
    const withFeedback = traces[4];
    const child = withFeedback?.calls[1];
    if (withFeedback === undefined || child === undefined) throw new Error('the scenario changed');
    const feedback = { project, callId: child.id, name: 'thumbs', value: true };
    expect((await post(server.url, routes.feedbackCreate(), feedback, asAdmin)).status).toBe(200);
    const kept = traces.filter((trace) => trace === withFeedback || trace.user === 'user2');
    const expired = traces.filter((trace) => !kept.includes(trace));

    let stop = () => {};
    const ingesting = ingestUntil(
      project,
      new Promise<void>((resolve) => {
        stop = resolve;
      }),
    );
    const settings = {
      retentionDays: 30,
      keepRules: [{ name: 'vip users', filter: { userId: 'user2' } }],
    };
    const set = await put(server.url, routes.projectSettings(project), settings, asAdmin);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ effectiveRetentionDays: 30, defaultRetentionDays: 30 });
    await retentionRan(project);
    stop();
    const fresh = await ingesting;

    for (const trace of expired) {
      for (const call of trace.calls) {
        expect((await get(server.url, routes.call(project, call.id), asAdmin)).status).toBe(404);
        expect(await search(project, call.secret)).toEqual([]);
      }
      if (trace.file !== undefined) {
        expect((await get(server.url, routes.fileRead(project, trace.file), asAdmin)).status).toBe(404);
      }
    }
    for (const trace of kept) {
      for (const call of trace.calls) {
        expect((await get(server.url, routes.call(project, call.id), asAdmin)).status).toBe(200);
      }
      const root = await get(server.url, routes.call(project, trace.traceId), asAdmin);
      // The trace's deduplicated values still resolve, and its file is still there.
      expect(JSON.stringify(root.body.inputs)).toContain(trace.ownValueWord);
      if (trace.file !== undefined) {
        expect((await get(server.url, routes.fileRead(project, trace.file), asAdmin)).status).toBe(200);
      }
    }
    const keptCalls = kept.reduce((sum, trace) => sum + trace.calls.length, 0);
    expect(fresh.length).toBeGreaterThan(0);
    expect(await search(project, COMMON_WORD)).toHaveLength(keptCalls + fresh.length);
  }, 120_000);

  it("applies the server's default retention to projects that set none", async () => {
    const project = 'defaulted';
    const traces = await storeScenario(server.url, project, {
      count: 3,
      start: Date.now() - 45 * DAY_MS,
      token: admin,
    });
    const settings = await get(server.url, routes.projectSettings(project), asAdmin);
    expect(settings.body).toEqual({
      project,
      keepRules: [],
      defaultRetentionDays: 30,
      effectiveRetentionDays: 30,
    });
    await retentionRan(project);
    for (const trace of traces) {
      expect((await get(server.url, routes.call(project, trace.traceId), asAdmin)).status).toBe(404);
    }
  });

  it('refuses retention of 0, negative, fractional or absurd days and a project token, changing nothing', async () => {
    const project = 'settled';
    const before = await put(server.url, routes.projectSettings(project), { retentionDays: 90 }, asAdmin);
    expect(before.status).toBe(200);
    for (const retentionDays of [0, -3, 2.5, 36_501, '30']) {
      const reply = await put(server.url, routes.projectSettings(project), { retentionDays }, asAdmin);
      expect(reply.status, String(retentionDays)).toBe(400);
      expect(reply.body.error.code).toBe('WEFT_INVALID_REQUEST');
      expect(JSON.stringify(reply.body.error)).toContain('retentionDays');
    }
    const rule = { retentionDays: 7, keepRules: [{ name: 'everything', filter: {} }] };
    const ruleReply = await put(server.url, routes.projectSettings(project), rule, asAdmin);
    expect(ruleReply.status).toBe(400);
    expect(JSON.stringify(ruleReply.body.error)).toContain('at least one filter');
    const scopedReply = await put(
      server.url,
      routes.projectSettings(project),
      { retentionDays: 1 },
      { token: scoped },
    );
    expect(scopedReply.status).toBe(403);
    expect(scopedReply.body.error.code).toBe('WEFT_ADMIN_REQUIRED');
    const after = await get(server.url, routes.projectSettings(project), { token: scoped });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
  });

  it('refuses a server default retention of 0 days, naming the option', async () => {
    await expect(
      startServer({ port: 0, dbPath: ':memory:', uiDir: false, retentionDays: 0 }),
    ).rejects.toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      message: expect.stringContaining('retentionDays'),
    });
  });
});
