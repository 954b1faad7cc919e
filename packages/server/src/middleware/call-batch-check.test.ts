import { callBatch } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { parseCallBatch } from './call-batch-check.js';
import { validate } from './validate.js';

const zodParse = validate(callBatch, 'body');
const ID = '0192f0a0-aaaa-7bbb-8ccc-000000000001';

const complete = () => ({
  type: 'complete',
  id: ID,
  traceId: ID,
  parentId: null,
  opName: 'chat',
  displayName: 'chat #1',
  startedAt: 1_700_000_000_000,
  endedAt: 1_700_000_000_010.5,
  inputs: { q: 'hi' },
  output: { a: 'yo' },
  attributes: { env: 'test' },
  sessionId: 's',
  exception: { name: 'Error', message: 'boom', statusCode: 429, cause: { name: 'E', message: 'root' } },
  summary: {
    latencyMs: 10,
    status: 'success',
    usage: { m: { requests: 1, inputTokens: 2, outputTokens: 3, totalTokens: 5, costUsd: 0.1 } },
    childCounts: { success: 1 },
    mine: { kept: true },
  },
});

/** Each mutation of a valid complete record, as [what, change]. */
const MUTATIONS: [string, (r: Record<string, unknown>) => void][] = [
  ['unchanged', () => {}],
  [
    'a start',
    (r) =>
      Object.assign(r, {
        type: 'start',
        endedAt: undefined,
        output: undefined,
        exception: undefined,
        summary: undefined,
      }),
  ],
  ['an unknown key (stripped)', (r) => Object.assign(r, { extra: 1 })],
  ['a bad id', (r) => Object.assign(r, { id: 'nope' })],
  ['a bad parent', (r) => Object.assign(r, { parentId: 'nope' })],
  ['no parent key', (r) => delete r.parentId],
  ['an empty op name', (r) => Object.assign(r, { opName: '' })],
  ['a long op name', (r) => Object.assign(r, { opName: 'x'.repeat(2_049) })],
  ['a long display name', (r) => Object.assign(r, { displayName: 'x'.repeat(1_025) })],
  ['a null display name', (r) => Object.assign(r, { displayName: null })],
  ['a negative start', (r) => Object.assign(r, { startedAt: -1 })],
  ['a start past 9999', (r) => Object.assign(r, { startedAt: 1e300 })],
  ['a NaN end', (r) => Object.assign(r, { endedAt: Number.NaN })],
  ['inputs as an array', (r) => Object.assign(r, { inputs: [1] })],
  ['no inputs', (r) => delete r.inputs],
  ['attributes as text', (r) => Object.assign(r, { attributes: 'a' })],
  ['an empty session', (r) => Object.assign(r, { sessionId: '' })],
  ['an unknown type', (r) => Object.assign(r, { type: 'middle' })],
  ['an exception without message', (r) => Object.assign(r, { exception: { name: 'E' } })],
  [
    'an exception with an unknown key',
    (r) => Object.assign(r, { exception: { name: 'E', message: 'm', at: 1 } }),
  ],
  [
    'a huge status code',
    (r) => Object.assign(r, { exception: { name: 'E', message: 'm', statusCode: 2 ** 60 } }),
  ],
  ['a bad cause', (r) => Object.assign(r, { exception: { name: 'E', message: 'm', cause: { name: 1 } } })],
  ['a negative latency', (r) => Object.assign(r, { summary: { latencyMs: -1 } })],
  ['a bad summary status', (r) => Object.assign(r, { summary: { status: 'done' } })],
  [
    'usage with a fraction of a request',
    (r) =>
      Object.assign(r, {
        summary: { usage: { m: { requests: 1.5, inputTokens: 1, outputTokens: 1, totalTokens: 2 } } },
      }),
  ],
  [
    'usage with an unknown key',
    (r) =>
      Object.assign(r, {
        summary: { usage: { m: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2, x: 1 } } },
      }),
  ],
  ['child counts with an unknown key', (r) => Object.assign(r, { summary: { childCounts: { skipped: 1 } } })],
  ['a summary that is null', (r) => Object.assign(r, { summary: null })],
];

function outcome(parse: (body: unknown) => unknown, body: unknown): unknown {
  try {
    return { ok: parse(body) };
  } catch (error) {
    return { error: (error as Error).message, issues: (error as { issues?: unknown }).issues };
  }
}

describe('call batch check', () => {
  it.each(MUTATIONS)('parses a batch with %s exactly as the callBatch schema does', (_, mutate) => {
    const record = complete() as Record<string, unknown>;
    mutate(record);
    for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
    const feedback = { type: 'feedback', callId: ID, id: ID, name: 'thumbs', value: true };
    for (const items of [[record], [feedback, record]]) {
      const body = () => ({ project: 'p', items: structuredClone(items) });
      expect(outcome(parseCallBatch, body())).toEqual(outcome(zodParse, body()));
    }
  });

  it('hands back the call records it checked without copying them', () => {
    const record = complete();
    const parsed = parseCallBatch({ project: 'p', items: [record] });
    expect(parsed.items[0]).toBe(record);
  });

  it('refuses a bad project, an empty batch and a body that is not an object as the schema does', () => {
    for (const body of [{ project: '-x', items: [complete()] }, { project: 'p', items: [] }, [], 'x', null]) {
      expect(outcome(parseCallBatch, body)).toEqual(outcome(zodParse, body));
      expect(outcome(parseCallBatch, body)).toHaveProperty('error');
    }
  });
});
