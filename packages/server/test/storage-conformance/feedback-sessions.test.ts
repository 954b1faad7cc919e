import type { FeedbackItem } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { callIdOf, completeOf, startOf } from '../support/calls.js';
import { useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract for feedback (stored once per id, attached whenever
 * its call is read), sessions (totals and paging) and the project list.
 */
const store = useConformanceStore();
const T = 1_700_000_000_000;

function feedback(n: number, callN: number, overrides: Partial<FeedbackItem> = {}): FeedbackItem {
  return {
    type: 'feedback',
    id: callIdOf(1_000 + n),
    callId: callIdOf(callN),
    name: 'thumbs',
    value: true,
    createdAt: T + n,
    ...overrides,
  };
}

describe(`storage contract (${store.engine}): feedback`, () => {
  it('stores an id once, keeping what was stored first, and counts only new ones', async () => {
    const project = store.project();
    expect(await store.storage.putFeedback(project, [feedback(1, 1), feedback(1, 1)])).toEqual({ stored: 1 });
    expect(
      await store.storage.putFeedback(project, [feedback(1, 1, { value: false }), feedback(2, 1)]),
    ).toEqual({ stored: 1 });
    expect((await store.storage.listFeedback(project, callIdOf(1))).map((f) => f.value)).toEqual([
      true,
      true,
    ]);
  });

  it('keeps feedback that arrives before its call and attaches it when the call arrives', async () => {
    const project = store.project();
    await store.storage.putFeedback(project, [
      feedback(1, 1, { name: 'score', value: 0.25, comment: 'ok', source: 'annotator:ana' }),
    ]);
    expect(await store.storage.readCall(project, callIdOf(1))).toBeUndefined();
    await store.storage.ingestCalls(project, [completeOf(1)]);
    expect((await store.storage.readCall(project, callIdOf(1)))?.feedback).toEqual([
      {
        id: callIdOf(1_001),
        name: 'score',
        value: 0.25,
        comment: 'ok',
        source: 'annotator:ana',
        createdAt: T + 1,
      },
    ]);
  });

  it('lists a call’s feedback by creation time, then in the order it was stored', async () => {
    const project = store.project();
    await store.storage.putFeedback(project, [
      feedback(3, 1, { value: 'c' }),
      feedback(2, 1, { value: 'b' }),
    ]);
    await store.storage.putFeedback(project, [feedback(9, 1, { value: 'a', createdAt: T + 2 })]);
    await store.storage.putFeedback(project, [feedback(4, 2)]);
    expect((await store.storage.listFeedback(project, callIdOf(1))).map((f) => f.value)).toEqual([
      'b',
      'a',
      'c',
    ]);
    expect(await store.storage.listFeedback(project, callIdOf(3))).toEqual([]);
    expect(await store.storage.listFeedback(store.project(), callIdOf(1))).toEqual([]);
  });
});

describe(`storage contract (${store.engine}): sessions`, () => {
  const usage = (totalTokens: number) => ({
    'gpt-4o': { requests: 1, inputTokens: totalTokens, outputTokens: 0, totalTokens },
  });

  it('totals root calls and counts every error, most recently active first', async () => {
    const project = store.project();
    await store.storage.ingestCalls(project, [
      // Session a: two turns (roots 1 and 3), a child of 1 that failed; tokens and cost from roots only.
      completeOf(1, {
        sessionId: 'a',
        endedAt: T + 50,
        summary: { latencyMs: 1, usage: usage(10), costUsd: 0.5 },
      }),
      {
        ...completeOf(2, { sessionId: 'a', parentId: callIdOf(1), traceId: callIdOf(1) }),
        summary: { latencyMs: 1, usage: usage(7), costUsd: 9 },
        exception: { name: 'Error', message: 'x' },
      },
      completeOf(3, { sessionId: 'a', endedAt: T + 20, summary: { latencyMs: 1, usage: usage(5) } }),
      // Session b: one running turn, active when it started; no cost anywhere.
      startOf(60, { sessionId: 'b' }),
      completeOf(4),
    ]);
    const page = await store.storage.querySessions({ project, limit: 10 });
    expect(page).toEqual({
      sessions: [
        {
          sessionId: 'b',
          turns: 1,
          firstStartedAt: T + 60,
          lastActivityAt: T + 60,
          totalTokens: 0,
          errors: 0,
        },
        {
          sessionId: 'a',
          turns: 2,
          firstStartedAt: T + 1,
          lastActivityAt: T + 50,
          totalTokens: 15,
          costUsd: 0.5,
          errors: 1,
        },
      ],
      nextCursor: null,
    });
  });

  it('pages with a cursor, ties by session id descending, and keeps sessions active since a time', async () => {
    const project = store.project();
    // Session names and the end time (ms after T) of their one call.
    const sessions: [string, number][] = [
      ['x', 5],
      ['y', 5],
      ['z', 5],
      ['w', 9],
      ['old', 1],
    ];
    await store.storage.ingestCalls(
      project,
      sessions.map(([session, end], n) =>
        completeOf(n, { sessionId: session, startedAt: T, endedAt: T + end }),
      ),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.storage.querySessions({
        project,
        limit: 2,
        activeAfter: T + 5,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.sessions.map((s) => s.sessionId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(['w', 'z', 'y', 'x']);
  });
});

describe(`storage contract (${store.engine}): projects`, () => {
  it('lists projects with calls or objects by name, counting calls whose start arrived', async () => {
    const [withCalls, withObjects, onlyEnds] = ['B-calls', 'A.objects', 'a-ends'].map(
      (p) => `${p}-${store.project()}`,
    );
    await store.storage.ingestCalls(withCalls as string, [
      completeOf(1),
      startOf(7),
      { ...completeOf(3), type: 'end' } as never,
    ]);
    await store.storage.ingestCalls(onlyEnds as string, [{ type: 'end', id: callIdOf(1), endedAt: T }]);
    await store.storage.putObject({
      project: withObjects as string,
      name: 'prompt',
      kind: 'object',
      digest: 'D'.repeat(43),
      canonicalValue: '"hi"',
    });
    const projects = (await store.storage.listProjects()).filter((p) =>
      [withCalls, withObjects, onlyEnds].includes(p.name),
    );
    expect(projects).toEqual([
      { name: withObjects, callCount: 0, lastCallAt: null },
      { name: withCalls, callCount: 2, lastCallAt: T + 7 },
    ]);
  });
});
