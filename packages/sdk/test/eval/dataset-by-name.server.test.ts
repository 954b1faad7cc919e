import { EVALUATE_OP } from '@weft/protocol';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { init } from '../../src/client/init.js';
import { Dataset, openDataset, type RemoteDataset } from '../../src/datasets/index.js';
import { Evaluation } from '../../src/eval/evaluation.js';
import { exactMatch } from '../../src/eval/scorers.js';
import { resetWeft } from '../../src/testing/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ register: afterAll });
});
afterEach(() => resetWeft({ timeoutMs: 5_000 }));

const rows = (tag: string) =>
  Array.from({ length: 5 }, (_, i) => ({ question: `q${i}`, expected: `${tag} ${i}` }));

/** Publishes two versions of `good-answers` and labels the first `production`. */
async function publishVersions(client: ReturnType<typeof init>) {
  const v1 = await new Dataset({ name: 'good-answers', rows: rows('v1') }).publish({ client });
  const v2 = await new Dataset({ name: 'good-answers', rows: rows('v2') }).publish({ client });
  await client.setLabel(v1.ref, 'production');
  return { v1, v2 };
}

it('opens a published dataset by name, version, label or ref (openDataset)', async () => {
  const client = init({ project: 'datasets-by-name', url: server.url, outbox: false });
  const { v1, v2 } = await publishVersions(client);
  const values = async (view: RemoteDataset) => {
    const out: unknown[] = [];
    for await (const row of view) out.push(row.value);
    return out;
  };
  const production = await openDataset('good-answers:production');
  expect(production.ref).toBe(v1.ref.uri);
  expect(production.name).toBe('good-answers');
  expect(await values(production)).toEqual(rows('v1'));
  expect((await openDataset('good-answers')).ref).toBe(v2.ref.uri);
  expect((await openDataset('good-answers:latest')).ref).toBe(v2.ref.uri);
  expect((await openDataset('good-answers:v1')).ref).toBe(v1.ref.uri);
  expect((await openDataset(v2.ref.uri)).ref).toBe(v2.ref.uri);
  expect((await openDataset(v2.table)).ref).toBe(v2.table);
  await expect(openDataset('good-answers:no-such-label')).rejects.toMatchObject({ code: 'WEFT_NOT_FOUND' });
  await expect(openDataset('not a name!')).rejects.toMatchObject({
    code: 'WEFT_INVALID_OPTIONS',
    path: 'ref',
  });
});

it("new Evaluation({ dataset }) takes a published dataset's label or a RemoteDataset, and records its version", async () => {
  const client = init({ project: 'datasets-by-name-eval', url: server.url, outbox: false });
  const { v1 } = await publishVersions(client);
  const model = async function answer(row: Record<string, unknown>) {
    return `v1 ${String(row.question).slice(1)}`;
  };
  const quiet = { progress: false, print: false } as const;
  const byLabel = await new Evaluation({
    name: 'by-label',
    dataset: 'good-answers:production',
    scorers: [exactMatch()],
  }).evaluate(model, quiet);
  expect(byLabel.scores.exactMatch).toMatchObject({ count: 5, passed: 5 });
  const view = await openDataset('good-answers');
  const byView = await new Evaluation({ name: 'by-view', dataset: view, scorers: [exactMatch()] }).evaluate(
    model,
    quiet,
  );
  expect(byView.scores.exactMatch).toMatchObject({ count: 5, passed: 0 });

  await client.flush();
  const runs = await client.getCalls({ opName: EVALUATE_OP }).toArray();
  const datasetOf = (evaluation: string) => {
    const run = runs.find((r) => (r.inputs as { evaluation?: string }).evaluation === evaluation);
    return (run?.inputs as { dataset?: unknown } | undefined)?.dataset;
  };
  expect(datasetOf('by-label')).toBe(v1.ref.uri);
  expect(datasetOf('by-view')).toBe(view.ref);
});
