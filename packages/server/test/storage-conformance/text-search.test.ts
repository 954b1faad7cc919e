import { beforeAll, describe, expect, it } from 'vitest';
import { foldText } from '../../src/storage/search-text.js';
import { callIdOf, completeOf, startOf } from '../support/calls.js';
import { allPages, parsedQuery, useConformanceStore } from '../support/conformance-storage.js';

/*
 * The storage contract, "Text matching": which calls a `text` query finds,
 * and their snippets, the same on every engine.
 */
const store = useConformanceStore();
let project: string;
const V = 'C'.repeat(43);

beforeAll(async () => {
  project = store.project();
  await store.storage.ingestCalls(project, [
    completeOf(1, { inputs: { q: 'weather in Oslo today' }, output: { a: 'sunny' } }),
    completeOf(2, { inputs: { q: 'greeting card' }, output: 'a nice CAFÉ noir' }),
    completeOf(3, { displayName: 'Plan the trip', inputs: { nested: { deep: ['x', { y: 'Café crème' }] } } }),
    completeOf(4, { opName: `weft:///${project}/op/summarizer:${V}`, inputs: { secretkey: 1 } }),
    { ...completeOf(5, { output: undefined }), exception: { name: 'Error', message: 'quota exceeded' } },
    completeOf(6, { displayName: 'step #1 ns::Tool', inputs: { q: 'alpha and beta or gamma' } }),
    completeOf(7, { displayName: 'STEP ->next', inputs: { q: 'alpha beta gamma' } }),
    startOf(8, { inputs: { q: 'oslo is running' } }),
  ]);
});

/** The call numbers a text query finds, oldest first (pages of 2). */
async function found(text: string): Promise<number[]> {
  const ids = await allPages(store.storage, {
    project,
    text,
    limit: 2,
    sort: { field: 'startedAt', direction: 'asc' },
  });
  return ids.map((id) => Number.parseInt(id.slice(-12), 16));
}

describe(`storage contract (${store.engine}): text matching`, () => {
  it.each<[string, string, number[]]>([
    ['a word of the inputs, whatever its case', 'OSLO', [1, 8]],
    ['a word of the output', 'sunny', [1]],
    ['a word deep in the inputs', 'crème', [3]],
    ['a word of the display name', 'trip', [3]],
    ['the plain name of an op ref', 'summarizer', [4]],
    ["the exception's message when there is no output", 'exceeded', [5]],
    ['diacritics folded in the text', 'cafe', [2, 3]],
    ['diacritics folded in the query', 'CAFÉ', [2, 3]],
    ['whole words only, not a prefix', 'greet', []],
    ['whole words only, not a substring', 'eather', []],
    ['every word, anywhere in the call', 'Oslo sunny', [1]],
    ['every word, so one missing word fails', 'Oslo rainy', []],
    ['object keys are not text', 'secretkey', []],
    ['query syntax is text: its words are ANDed', '"alpha" AND (beta* OR -gamma:', [6]],
    ['a number is a word', '1', [6]],
    ['punctuation only: a substring of display or op names', '::', [6]],
    ['punctuation only, in a display name', '->', [7]],
    ['no such word', 'nosuchword', []],
  ])('finds %s', async (_, text, expected) => {
    expect(await found(text)).toEqual(expected);
  });

  it('gives each match a snippet whose flagged words fold to the words searched', async () => {
    const page = await store.storage.queryCalls(parsedQuery({ project, text: 'CAFE noir' }));
    expect(page.calls.map((c) => c.id)).toEqual([callIdOf(2)]);
    const snippet = page.calls[0]?.snippet ?? [];
    const flagged = snippet.filter((part) => part.match).map((part) => foldText(part.text));
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.every((word) => word === 'cafe' || word === 'noir')).toBe(true);
    expect(snippet.map((part) => part.text).join('')).toContain('CAFÉ');
  });

  it('answers a text query together with other filters', async () => {
    const page = await store.storage.queryCalls(parsedQuery({ project, text: 'oslo', status: 'running' }));
    expect(page.calls.map((c) => c.id)).toEqual([callIdOf(8)]);
  });
});
