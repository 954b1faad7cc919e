import { type CallDeleteRequest, routes } from '@weft/protocol';
import { startTestServer, type TestServer } from '@weft/test-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { del, get, post } from './support/http.js';
import { COMMON_WORD, type ScenarioTrace, SHARED_WORD, storeScenario } from './support/lifecycle-scenario.js';
import { freshTestStorageUrl, testStorageKind } from './support/test-storage.js';

/*
 * Deletion on request (issue 28): whole traces go, and afterwards nothing of
 * them is readable anywhere — by id, in search results and snippets, in
 * sessions, in metrics, in exports, in files and values.
 */
const admin = 'admin-token-0123456789';
const scoped = 'project-token-0123456789';
let server: TestServer;
let runs = 0;
const START = Date.UTC(2026, 5, 1);

beforeAll(async () => {
  server = await startTestServer({
    storage: freshTestStorageUrl(),
    token: admin,
    projectTokens: { [scoped]: ['scoped'] },
    register: false,
  });
});
afterAll(() => server.close());

const asAdmin = { token: admin };

/** The traces a deletion query selects in the scenario: those with a call that matches every filter. */
function selected(traces: readonly ScenarioTrace[], query: CallDeleteRequest): ScenarioTrace[] {
  return traces.filter((trace) =>
    trace.calls.some((call, i) => {
      const root = i === 0;
      if (query.traceIds && !query.traceIds.includes(trace.traceId)) return false;
      if (query.userId !== undefined && !(root && trace.user === query.userId)) return false;
      if (query.sessionId !== undefined && !(root && trace.session === query.sessionId)) return false;
      if (query.attributes !== undefined && !(root && trace.tier === query.attributes.tier)) return false;
      if (query.startedAfter !== undefined && call.startedAt < query.startedAfter) return false;
      if (query.startedBefore !== undefined && call.startedAt >= query.startedBefore) return false;
      return true;
    }),
  );
}

async function search(
  project: string,
  text: string,
): Promise<{ id: string; snippet?: { text: string }[] }[]> {
  const reply = await post(server.url, routes.callQuery(), { project, text, limit: 1_000 }, asAdmin);
  expect(reply.status).toBe(200);
  return reply.body.calls;
}

async function exported(project: string): Promise<string> {
  const response = await fetch(
    new URL(`${routes.callExport()}?project=${project}&format=jsonl&values=resolved`, server.url),
    { headers: { authorization: `Bearer ${admin}` } },
  );
  expect(response.status).toBe(200);
  return response.text();
}

/** A deletion query before it has a project; traces are picked by their index in the scenario. */
type PickedQuery = Omit<CallDeleteRequest, 'project' | 'traceIds'> & { traceIndexes?: number[] };

const queries = (traces: number): fc.Arbitrary<PickedQuery> =>
  fc.oneof(
    fc
      .uniqueArray(fc.integer({ min: 0, max: traces - 1 }), { minLength: 1, maxLength: 3 })
      .map((traceIndexes): PickedQuery => ({ traceIndexes })),
    fc.integer({ min: 0, max: 2 }).map((u) => ({ userId: `user${u}` })),
    fc.integer({ min: 0, max: 3 }).map((s) => ({ sessionId: `session${s}` })),
    fc.integer({ min: 0, max: 1 }).map((tier) => ({ attributes: { tier } })),
    fc
      .tuple(fc.integer({ min: 0, max: traces }), fc.integer({ min: 1, max: traces }))
      .map(([from, span]) => ({
        startedAfter: START + from * 1_000,
        startedBefore: START + (from + span) * 1_000 - 5,
      })),
  );

describe(`deletion on request (${testStorageKind()})`, () => {
  it('leaves nothing of the deleted traces readable on any path, and everything else as it was', async () => {
    const count = 9;
    await fc.assert(
      fc.asyncProperty(queries(count), async ({ traceIndexes, ...picked }) => {
        const project = `deletion-${++runs}`;
        const traces = await storeScenario(server.url, project, { count, start: START, token: admin });
        const query: CallDeleteRequest = {
          ...picked,
          project,
          ...(traceIndexes ? { traceIds: traceIndexes.map((t) => traces[t]?.traceId as string) } : {}),
        };
        const gone = selected(traces, query);
        const kept = traces.filter((trace) => !gone.includes(trace));
        const allCalls = traces.reduce((sum, trace) => sum + trace.calls.length, 0);
        const goneCalls = gone.reduce((sum, trace) => sum + trace.calls.length, 0);

        const dry = await del(server.url, routes.callDelete(), { ...query, dryRun: true }, asAdmin);
        if (goneCalls === allCalls) {
          // A query that matches everything needs `all`; nothing changes.
          expect(dry.status).toBe(400);
          expect(dry.body.error.path).toBe('all');
          expect(await search(project, COMMON_WORD)).toHaveLength(allCalls);
          return;
        }
        expect(dry.status, JSON.stringify(dry.body)).toBe(200);
        expect(dry.body).toMatchObject({ dryRun: true, traces: gone.length, calls: goneCalls });
        expect(await search(project, COMMON_WORD)).toHaveLength(allCalls);

        const done = await del(server.url, routes.callDelete(), query, asAdmin);
        expect(done.status, JSON.stringify(done.body)).toBe(200);
        expect(done.body).toEqual({ ...dry.body, dryRun: false });
        // Own values go with their trace; the shared prompt only when no kept trace uses it.
        const sharedGone = !kept.some((t) => t.sharesPrompt) && gone.some((t) => t.sharesPrompt);
        expect(done.body.values).toBe(gone.length + (sharedGone ? 1 : 0));
        expect(done.body.files).toBe(gone.filter((t) => t.file !== undefined).length);

        // By id.
        for (const trace of gone) {
          for (const call of trace.calls) {
            expect((await get(server.url, routes.call(project, call.id), asAdmin)).status).toBe(404);
          }
          if (trace.file !== undefined) {
            expect((await get(server.url, routes.fileRead(project, trace.file), asAdmin)).status).toBe(404);
          }
        }
        for (const trace of kept) {
          const root = await get(server.url, routes.call(project, trace.traceId), asAdmin);
          expect(root.status).toBe(200);
          expect(JSON.stringify(root.body.inputs)).toContain(trace.ownValueWord);
          if (trace.sharesPrompt) expect(JSON.stringify(root.body.inputs)).toContain(SHARED_WORD);
        }
        // Search results and snippets.
        const goneWords = gone.flatMap((trace) => trace.calls.map((call) => call.secret));
        for (const secret of goneWords) expect(await search(project, secret)).toEqual([]);
        const common = await search(project, COMMON_WORD);
        expect(common).toHaveLength(allCalls - goneCalls);
        const snippets = JSON.stringify(common.map((call) => call.snippet));
        for (const secret of goneWords) expect(snippets).not.toContain(secret);
        // Sessions: a session whose every trace went is gone.
        const sessions = await post(server.url, routes.sessionQuery(), { project }, asAdmin);
        expect(new Set(sessions.body.sessions.map((s: { sessionId: string }) => s.sessionId))).toEqual(
          new Set(kept.map((trace) => trace.session)),
        );
        // Metrics, from the rollups.
        const metrics = await post(
          server.url,
          routes.metricsQuery(),
          { project, from: START - 60_000, to: START + 3_600_000, bucket: 'total', measures: ['count'] },
          asAdmin,
        );
        expect(metrics.status, JSON.stringify(metrics.body)).toBe(200);
        expect(metrics.body.series[0].values).toEqual([allCalls - goneCalls]);
        // An export made afterwards.
        const lines = await exported(project);
        for (const secret of goneWords) expect(lines).not.toContain(secret);
        for (const trace of gone) expect(lines).not.toContain(trace.ownValueWord);
        for (const trace of kept) expect(lines).toContain(trace.calls[0]?.secret);
        if (sharedGone) expect(lines).not.toContain(SHARED_WORD);
      }),
      { numRuns: testStorageKind() === 'sqlite' ? 12 : 4 },
    );
  }, 600_000);

  it('records each deletion with who, when, the query and the counts, never the deleted text', async () => {
    const project = `audit-${++runs}`;
    const traces = await storeScenario(server.url, project, { count: 4, start: START, token: admin });
    const reply = await del(server.url, routes.callDelete(), { project, userId: 'user1' }, asAdmin);
    expect(reply.status).toBe(200);
    const log = await get(server.url, routes.deletionAudit(project), asAdmin);
    expect(log.status).toBe(200);
    expect(log.body.entries).toEqual([
      {
        at: expect.any(Number),
        project,
        actor: 'admin token',
        query: { userId: 'user1' },
        counts: { traces: 1, calls: 2, values: 1, files: 0 },
      },
    ]);
    const text = JSON.stringify(log.body);
    for (const call of traces[1]?.calls ?? []) expect(text).not.toContain(call.secret);
  });

  it('refuses bad deletions with a 4xx naming the problem, and deletes nothing', async () => {
    const project = `refused-${++runs}`;
    const traces = await storeScenario(server.url, project, { count: 3, start: START, token: admin });
    const refusals: [unknown, number, string, string?][] = [
      [{ project }, 400, 'WEFT_INVALID_REQUEST', 'a deletion needs a filter'],
      [{ project, all: true, userId: 'user0' }, 400, 'WEFT_INVALID_REQUEST', 'cannot be combined'],
      [{ project, startedAfter: 0 }, 400, 'WEFT_INVALID_REQUEST', 'matches every call'],
      [{ project, traceIds: ['not-an-id'] }, 400, 'WEFT_INVALID_REQUEST'],
      [{ project, userId: 'user0', colour: 'red' }, 400, 'WEFT_INVALID_REQUEST', 'colour'],
      [{ project: 'no-such-project', userId: 'user0' }, 404, 'WEFT_NOT_FOUND', 'no-such-project'],
    ];
    for (const [body, status, code, text] of refusals) {
      const reply = await del(server.url, routes.callDelete(), body, asAdmin);
      expect(reply.status, JSON.stringify(body)).toBe(status);
      expect(reply.body.error.code).toBe(code);
      if (text !== undefined) expect(JSON.stringify(reply.body.error)).toContain(text);
    }
    const scopedReply = await del(
      server.url,
      routes.callDelete(),
      { project: 'scoped', all: true },
      { token: scoped },
    );
    expect(scopedReply.status).toBe(403);
    expect(scopedReply.body.error.code).toBe('WEFT_ADMIN_REQUIRED');
    expect(scopedReply.body.error.message).toContain('admin token');
    expect(await search(project, COMMON_WORD)).toHaveLength(traces.reduce((n, t) => n + t.calls.length, 0));
    expect((await get(server.url, routes.deletionAudit(project), asAdmin)).body.entries).toEqual([]);
  });

  it('deletes every call of a project with all: true', async () => {
    const project = `everything-${++runs}`;
    await storeScenario(server.url, project, { count: 3, start: START, token: admin });
    const reply = await del(server.url, routes.callDelete(), { project, all: true }, asAdmin);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ traces: 3, calls: 6 });
    expect(await search(project, COMMON_WORD)).toEqual([]);
  });
});
