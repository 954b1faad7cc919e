import { PREDICT_AND_SCORE_OP, routes } from '@weft/protocol';
import { Dataset, flush } from '@weft/sdk';
import { Evaluation, scorers } from '@weft/sdk/eval';
import type { ApiSeeder, SeededRun } from './api-seed.js';
import { QUESTIONS, work } from './seed-program.js';

/** The SDK's traced evaluation runs over the QA dataset, for the compare view. */
export interface SeededEvaluations {
  datasetRef: string;
  runA: SeededRun;
  runB: SeededRun;
}

/**
 * Runs two real evaluations with the SDK's runner (the default client must be
 * initialised): model A misses rows 1 and 2, model B fixes both but breaks
 * row 3. Each run is traced as `Evaluation.evaluate` with one
 * `Evaluation.predict_and_score` child per row.
 */
export async function seedEvaluations(seeder: ApiSeeder): Promise<SeededEvaluations> {
  const dataset = new Dataset({ name: 'qa-dataset', rows: QUESTIONS.map((q) => ({ ...q })) });
  const published = await dataset.publish();
  const evaluation = new Evaluation({
    name: 'qa-eval',
    dataset,
    scorers: {
      exact_match: scorers.exactMatch(),
      similarity: ({ output, row }) => ({ f1: String(output) === row.expected ? 1 : 0.25 }),
    },
  });
  const wrongA = new Map([
    [1, 'six'],
    [2, 'Marlowe'],
  ]);
  const quiet = { progress: false, print: false, concurrency: 2 } as const;
  await evaluation.evaluate(async function model_a(row: Record<string, unknown>) {
    const index = QUESTIONS.findIndex((q) => q.question === row.question);
    await work(20 + index * 4);
    return wrongA.get(index) ?? String(row.expected);
  }, quiet);
  const runA = await runOf(seeder, evaluation.lastRun?.callId);
  await evaluation.evaluate(async function model_b(row: Record<string, unknown>) {
    const index = QUESTIONS.findIndex((q) => q.question === row.question);
    await work(10);
    return index === 3 ? '212' : String(row.expected);
  }, quiet);
  const runB = await runOf(seeder, evaluation.lastRun?.callId);
  return { datasetRef: published.ref.uri, runA, runB };
}

/** The run's call and its row calls by row index, read back through the API once flushed. */
async function runOf(seeder: ApiSeeder, callId: string | undefined): Promise<SeededRun> {
  if (callId === undefined) throw new Error('The evaluation was not traced (no default client?)');
  const flushed = await flush();
  if (flushed.failed > 0 || flushed.pending > 0)
    throw new Error(`Flush incomplete: ${JSON.stringify(flushed)}`);
  const page = await seeder.post<{ calls: { id: string; traceId: string; output: { rowIndex: number } }[] }>(
    routes.callQuery(),
    { project: seeder.project, parentId: callId, opName: PREDICT_AND_SCORE_OP, limit: 1_000 },
  );
  const rowCallIds: string[] = [];
  for (const call of page.calls) rowCallIds[call.output.rowIndex] = call.id;
  const traceId = page.calls[0]?.traceId;
  if (traceId === undefined || rowCallIds.length !== QUESTIONS.length) {
    throw new Error(`Expected ${QUESTIONS.length} row calls under run ${callId}, found ${page.calls.length}`);
  }
  return { id: callId, traceId, rowCallIds };
}
