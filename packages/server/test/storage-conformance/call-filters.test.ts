import type { CallQuery } from '@weft/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { callIdOf, completeOf, endOf, startOf } from '../support/calls.js';
import { allPages, parsedQuery, useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract's call filters (`Storage.queryCalls`), each ANDed with
 * the others, on one small project every engine stores the same way.
 */
const store = useConformanceStore();
let project: string;

/**
 * Ten calls: 1 is a root with children 2 and 3 (trace 1); 4–10 are roots.
 * Call n starts at T + n.
 */
const T = 1_700_000_000_000;
/** Two op versions' digests (43 base64url characters, as sha256 gives them). */
const V1 = 'A'.repeat(43);
const V2 = 'B'.repeat(43);
beforeAll(async () => {
  project = store.project();
  const trace = callIdOf(1);
  await store.storage.ingestCalls(project, [
    completeOf(1, {
      opName: 'agent',
      attributes: {
        env: 'prod',
        tier: 2,
        user: { id: 'u1' },
        ...span('checkout', 'gpt-4o'),
        'otel.kind': 'client',
      },
    }),
    completeOf(2, { traceId: trace, parentId: trace, opName: `weft:///${project}/op/llm:${V1}` }),
    completeOf(3, { traceId: trace, parentId: trace, opName: `weft:///${project}/op/llm:${V2}` }),
    completeOf(4, {
      attributes: { env: 'dev', tier: '2', tags: ['vip', 'eu'], ...span('checkout', 'gpt-4o-mini', 42) },
      sessionId: 's1',
    }),
    completeOf(5, {
      attributes: { env: 'prod', tags: ['eu'], 'user.id': 'u1', ...span('search', 'gpt-4o') },
      sessionId: 's1',
    }),
    { ...completeOf(6), exception: { name: 'Error', message: 'boom' } },
    completeOf(7, { summary: { latencyMs: 5, status: 'error' } }),
    startOf(8, { attributes: { flag: true, n: 1.5 } }),
    startOf(9),
    endOf(10),
  ]);
  await store.storage.putFeedback(project, [
    { type: 'feedback', id: callIdOf(101), callId: callIdOf(4), name: 'thumbs', value: true, createdAt: T },
    { type: 'feedback', id: callIdOf(102), callId: callIdOf(5), name: 'thumbs', value: false, createdAt: T },
    { type: 'feedback', id: callIdOf(103), callId: callIdOf(5), name: 'score', value: 0.5, createdAt: T },
    { type: 'feedback', id: callIdOf(104), callId: callIdOf(6), name: 'label', value: 'bad', createdAt: T },
  ]);
});

/**
 * The attributes a call made from a GenAI span has (`spanToCall`): its
 * resource, scope and model, which SQLite indexes once per distinct set
 * rather than per call; filters on them must answer as on any attribute.
 */
function span(service: string, model: string, pid?: number): Record<string, unknown> {
  return {
    'otel.resource': { 'service.name': service, ...(pid === undefined ? {} : { 'process.pid': pid }) },
    'otel.scope': { name: 'genai-lib', version: '1.0.0' },
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
  };
}

/** The call numbers a filter selects, oldest first. */
async function matching(filter: Omit<CallQuery, 'project'>): Promise<number[]> {
  const ids = await allPages(store.storage, {
    project,
    limit: 3,
    sort: { field: 'startedAt', direction: 'asc' },
    ...filter,
  });
  return ids.map((id) => Number.parseInt(id.slice(-12), 16));
}

describe(`storage contract (${store.engine}): call filters`, () => {
  it.each<[string, Omit<CallQuery, 'project'>, number[]]>([
    ['no filter: every call whose start arrived', {}, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ['a trace', { traceId: callIdOf(1) }, [1, 2, 3]],
    ['roots', { parentId: null }, [1, 4, 5, 6, 7, 8, 9]],
    ['children of a call', { parentId: callIdOf(1) }, [2, 3]],
    ['a plain op name matches every version of the op', { opName: 'llm' }, [2, 3]],
    ['an op ref matches that version only', { opName: `weft:///PROJECT/op/llm:${V2}` }, [3]],
    ['several op names match any', { opName: ['agent', `weft:///PROJECT/op/llm:${V1}`] }, [1, 2]],
    ['status running: no end yet', { status: 'running' }, [8, 9]],
    ['status error: an exception or an error summary', { status: 'error' }, [6, 7]],
    ['several statuses', { status: ['running', 'error'] }, [6, 7, 8, 9]],
    ['success', { status: 'success', parentId: null }, [1, 4, 5]],
    ['started after (inclusive)', { startedAfter: T + 8 }, [8, 9]],
    ['started before (exclusive)', { startedBefore: T + 3 }, [1, 2]],
    ['a session', { sessionId: 's1' }, [4, 5]],
    ['a string attribute', { attributes: { env: 'prod' } }, [1, 5]],
    ['attributes are typed: 2 is not "2"', { attributes: { tier: 2 } }, [1]],
    ['a string attribute "2"', { attributes: { tier: '2' } }, [4]],
    ['attributes are ANDed', { attributes: { env: 'prod', tier: 2 } }, [1]],
    ['a nested attribute by dotted key', { attributes: { 'user.id': 'u1' } }, [1, 5]],
    ['a boolean and a number attribute', { attributes: { flag: true, n: 1.5 } }, [8]],
    ['an array attribute by element', { attributes: { tags: 'eu' } }, [4, 5]],
    ['userId is attribute user.id', { userId: 'u1' }, [1, 5]],
    ['a tag', { tag: 'vip' }, [4]],
    ['every one of several tags', { tag: ['vip', 'eu'] }, [4]],
    ['an attribute no call has', { attributes: { env: 'staging' } }, []],
    ['a resource attribute', { attributes: { 'otel.resource.service.name': 'checkout' } }, [1, 4]],
    ['a model', { attributes: { 'gen_ai.request.model': 'gpt-4o' } }, [1, 5]],
    ['a model and an own attribute', { attributes: { 'gen_ai.request.model': 'gpt-4o', tier: 2 } }, [1]],
    [
      'a resource attribute and a model',
      { attributes: { 'otel.resource.service.name': 'search', 'gen_ai.request.model': 'gpt-4o' } },
      [5],
    ],
    ['a scope attribute', { attributes: { 'otel.scope.name': 'genai-lib' } }, [1, 4, 5]],
    ['the span kind', { attributes: { 'otel.kind': 'client' } }, [1]],
    ['a shared attribute is typed: 42', { attributes: { 'otel.resource.process.pid': 42 } }, [4]],
    ['a shared attribute is typed: "42"', { attributes: { 'otel.resource.process.pid': '42' } }, []],
    [
      'a shared attribute and a session',
      { attributes: { 'gen_ai.operation.name': 'chat' }, sessionId: 's1' },
      [4, 5],
    ],
    ['any feedback', { feedback: {} }, [4, 5, 6]],
    ['feedback by name', { feedback: { name: 'thumbs' } }, [4, 5]],
    ['feedback by name and boolean value', { feedback: { name: 'thumbs', value: false } }, [5]],
    ['feedback by number value', { feedback: { name: 'score', value: 0.5 } }, [5]],
    ['feedback by label value', { feedback: { name: 'label', value: 'bad' } }, [6]],
    ['filters are ANDed', { parentId: null, attributes: { env: 'prod' }, feedback: {} }, [5]],
  ])('%s', async (_, filter, expected) => {
    const withProject = JSON.parse(JSON.stringify(filter).replaceAll('PROJECT', project));
    expect(await matching(withProject)).toEqual(expected);
  });

  it('finds a re-sent call by its new shared attributes only, and only in its own project', async () => {
    const other = store.project();
    await store.storage.ingestCalls(other, [completeOf(1, { attributes: span('checkout', 'gpt-4o') })]);
    await store.storage.ingestCalls(other, [completeOf(1, { attributes: span('billing', 'gpt-4o') })]);
    const services = async (service: string, inProject: string) =>
      (
        await allPages(store.storage, {
          project: inProject,
          attributes: { 'otel.resource.service.name': service },
        })
      ).length;
    expect(await services('checkout', other)).toBe(0);
    expect(await services('billing', other)).toBe(1);
    // The first project's calls of the same service are not the other project's.
    expect(await services('billing', project)).toBe(0);
  });

  it('attaches each call its feedback, oldest first', async () => {
    const ids = await store.storage.queryCalls(parsedQuery({ project, feedback: {} }));
    const five = ids.calls.find((c) => c.id === callIdOf(5));
    expect(five?.feedback?.map((f) => f.name)).toEqual(['thumbs', 'score']);
    expect(ids.calls.find((c) => c.id === callIdOf(4))?.feedback).toEqual([
      { id: callIdOf(101), name: 'thumbs', value: true, createdAt: T },
    ]);
  });
});
