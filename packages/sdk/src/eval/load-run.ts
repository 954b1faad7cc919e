import {
  type Call,
  call as callSchema,
  EVALUATE_OP,
  type EvaluationRowResult,
  evaluationRowResult,
  evaluationSummary,
  type EvaluationSummary,
  hasCode,
  PREDICT_AND_SCORE_OP,
  routes,
} from '@weft/protocol';
import type { WeftClient } from '../client/index.js';
import { CallQueryPages } from '../read/index.js';
import { ApiClient } from '../transport/index.js';
import { RunNotFoundError } from './errors/index.js';

/** Where to read a run from: a client, or a server address and project. */
export type RunSource = WeftClient | { url: string; project: string; apiKey?: string };

/** A recorded evaluation run, as read back from the server. */
export interface LoadedRun {
  run: Call;
  /** The run's summary (its output); absent while it runs or when it failed. */
  summary: EvaluationSummary | undefined;
  /** Row results, ordered by (rowIndex, trial). */
  results: EvaluationRowResult[];
  /** Row calls whose output is not a row result (still running, failed, or foreign): listed, not fatal. */
  skipped: { callId: string; reason: string }[];
}

const isClient = (source: RunSource): source is WeftClient =>
  typeof (source as WeftClient).getCalls === 'function';

/**
 * Reads an evaluation run back: the `Evaluation.evaluate` call and the row
 * results of its `Evaluation.predict_and_score` children, paged through the
 * read API (`parentId` = the run). Feed two of these to `compareRuns`.
 *
 * @throws {RunNotFoundError} unknown id, or not an evaluation run.
 */
export async function loadRun(source: RunSource, runId: string): Promise<LoadedRun> {
  let api: ApiClient | undefined;
  const project = source.project;
  try {
    let run: Call | undefined;
    let pages: AsyncIterable<Call>;
    const query = { parentId: runId, opName: PREDICT_AND_SCORE_OP, pageSize: 1_000 };
    if (isClient(source)) {
      run = await source.getCall(runId);
      pages = source.getCalls(query);
    } else {
      api = new ApiClient({ url: source.url, apiKey: source.apiKey });
      try {
        run = await api.getJson(routes.call(project, runId), callSchema);
      } catch (error) {
        if (!hasCode(error, 'WEFT_NOT_FOUND')) throw error;
      }
      pages = new CallQueryPages(api, project, query);
    }
    if (run === undefined) throw new RunNotFoundError(runId, project, 'the server has no call with that id');
    if (run.opName !== EVALUATE_OP) {
      throw new RunNotFoundError(runId, project, `that call is a ${run.opName} call, not ${EVALUATE_OP}`);
    }
    const results: EvaluationRowResult[] = [];
    const skipped: LoadedRun['skipped'] = [];
    for await (const row of pages) {
      const parsed = evaluationRowResult.safeParse(row.output);
      if (parsed.success) results.push(parsed.data);
      else
        skipped.push({
          callId: row.id,
          reason: row.status === 'success' ? 'output is not a row result' : `status ${row.status}`,
        });
    }
    results.sort((a, b) => a.rowIndex - b.rowIndex || a.trial - b.trial);
    const summary = evaluationSummary.safeParse(run.output);
    return { run, summary: summary.success ? summary.data : undefined, results, skipped };
  } finally {
    await api?.close();
  }
}
