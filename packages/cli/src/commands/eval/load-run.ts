import {
  call as callSchema,
  EVALUATE_OP,
  type EvaluationRowResult,
  type EvaluationSummary,
  evaluationRowResult,
  evaluationSummary,
  PREDICT_AND_SCORE_OP,
  routes,
} from '@weft/protocol';
import { RunNotFoundError } from '../../errors/run-not-found-error.js';
import { ServerResponseError } from '../../errors/server-response-error.js';
import { getJson, type ServerTarget } from '../../http/request-json.js';
import { fetchCalls } from '../calls/fetch-calls.js';
import { opNameOf } from '../calls/op-name-of.js';

/** An evaluation run as the server holds it: its summary and its row results. */
export interface LoadedRun {
  id: string;
  summary: EvaluationSummary;
  rows: EvaluationRowResult[];
  /** Row calls whose output is not a row result (still running, or failed before recording one). */
  unreadableRows: number;
}

// Every row of a run, however large: the server is asked page by page.
const ALL_ROWS = Number.MAX_SAFE_INTEGER;

/**
 * Reads an evaluation run — a call of `Evaluation.evaluate` — and the row
 * results its `Evaluation.predict_and_score` children recorded.
 */
export async function loadRun(target: ServerTarget, project: string, runId: string): Promise<LoadedRun> {
  let raw: unknown;
  try {
    raw = await getJson(target, routes.call(project, runId));
  } catch (error) {
    if (error instanceof ServerResponseError && error.statusCode === 404) {
      throw new RunNotFoundError(runId, project, 'there is no call with that id');
    }
    throw error;
  }
  const run = callSchema.safeParse(raw);
  if (!run.success) {
    throw new ServerResponseError({
      statusCode: 200,
      code: 'WEFT_BAD_RESPONSE',
      message: `The server at ${target.url} answered with something that is not a call for ${runId}.`,
    });
  }
  if (opNameOf(run.data.opName) !== EVALUATE_OP) {
    throw new RunNotFoundError(runId, project, `that call is an ${opNameOf(run.data.opName)} call`);
  }
  const summary = evaluationSummary.safeParse(run.data.output);
  if (!summary.success) {
    throw new RunNotFoundError(
      runId,
      project,
      run.data.status === 'running' ? 'the run has not finished' : 'the run recorded no summary (it failed)',
    );
  }
  const { calls } = await fetchCalls(
    target,
    {
      project,
      parentId: runId,
      opName: PREDICT_AND_SCORE_OP,
      sort: { field: 'startedAt', direction: 'asc' },
    },
    ALL_ROWS,
  );
  const rows: EvaluationRowResult[] = [];
  let unreadableRows = 0;
  for (const row of calls) {
    const result = evaluationRowResult.safeParse(row.output);
    if (result.success) rows.push(result.data);
    else unreadableRows++;
  }
  return { id: runId, summary: summary.data, rows, unreadableRows };
}
