import { randomUUID } from 'node:crypto';
import {
  type CallComplete,
  type CallItem,
  digestValue,
  EVALUATE_OP,
  type EvaluationRowResult,
  type EvaluationSummary,
  PREDICT_AND_SCORE_OP,
  routes,
} from '@weft/protocol';

/**
 * Seeds the server through its public HTTP API (JSON bodies, digests from
 * @weft/protocol), the way any client could. Used for data the SDK cannot
 * record yet (evaluation runs) and for the 5,000-call trace.
 */
export class ApiSeeder {
  readonly #url: string;
  readonly #token: string | undefined;
  readonly project: string;

  constructor(url: string, project: string, token?: string) {
    this.#url = url;
    this.project = project;
    this.#token = token;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    const response = await fetch(this.#url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path} → ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  /** Publishes an object version; returns its ref URI. */
  async object(name: string, value: unknown): Promise<string> {
    const res = await this.post<{ ref: string }>(routes.objectCreate(), {
      project: this.project,
      name,
      digest: digestValue(value),
      value,
    });
    return res.ref;
  }

  /** Stores a table; returns its ref URI. */
  async table(rows: unknown[]): Promise<string> {
    const res = await this.post<{ digest: string }>(routes.tableCreate(), { project: this.project, rows });
    return `weft:///${this.project}/table/${res.digest}`;
  }

  async calls(items: CallItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += 5_000) {
      await this.post(routes.callBatch(), { project: this.project, items: items.slice(i, i + 5_000) });
    }
  }
}

/** A finished call record, ready for a batch. */
export function completeCall(fields: {
  id?: string;
  traceId: string;
  parentId: string | null;
  opName: string;
  displayName?: string;
  startedAt: number;
  endedAt: number;
  inputs?: Record<string, unknown>;
  output?: unknown;
  exception?: CallComplete['exception'];
  summary?: CallComplete['summary'];
}): CallComplete & { id: string } {
  return {
    type: 'complete',
    inputs: {},
    ...fields,
    id: fields.id ?? randomUUID(),
  };
}

/** What an evaluation run seeded through the API looks like to the test. */
export interface SeededRun {
  id: string;
  traceId: string;
  rowCallIds: string[];
}

/**
 * Records an evaluation run the way the runner does (protocol
 * schemas/evaluation.ts): an `Evaluation.evaluate` call whose output is the
 * summary, and one `Evaluation.predict_and_score` child per row.
 */
export async function seedEvaluationRun(
  seeder: ApiSeeder,
  options: {
    evaluation: string;
    model: string;
    datasetRef: string;
    startedAt: number;
    /** Per-row latency of this run's model. */
    latencyMs: (rowIndex: number) => number;
    rows: { question: string; expected: string; answer: string }[];
  },
): Promise<SeededRun> {
  const runId = randomUUID();
  const items: CallItem[] = [];
  const results: EvaluationRowResult[] = [];
  const rowCallIds: string[] = [];
  let t = options.startedAt;
  options.rows.forEach((row, rowIndex) => {
    const latencyMs = options.latencyMs(rowIndex);
    const exact = row.answer.toLowerCase() === row.expected.toLowerCase();
    const result: EvaluationRowResult = {
      rowIndex,
      trial: 0,
      output: row.answer,
      scores: { exact_match: exact, similarity: { f1: exact ? 1 : 0.25 } },
      latencyMs,
    };
    results.push(result);
    const call = completeCall({
      traceId: runId,
      parentId: runId,
      opName: PREDICT_AND_SCORE_OP,
      startedAt: t,
      endedAt: t + latencyMs,
      inputs: { row: { question: row.question, expected: row.expected }, model: options.model },
      output: result,
      summary: { latencyMs, status: 'success' },
    });
    rowCallIds.push(call.id);
    items.push(call);
    t += latencyMs + 1;
  });
  const passed = results.filter((r) => r.scores.exact_match === true).length;
  const f1s = results.map((r) => (r.scores.similarity as { f1: number }).f1);
  const mean = f1s.reduce((a, b) => a + b, 0) / f1s.length;
  const summary: EvaluationSummary = {
    evaluation: options.evaluation,
    model: options.model,
    rows: options.rows.length,
    trials: 1,
    completed: options.rows.length,
    errors: 0,
    scores: {
      exact_match: { kind: 'boolean', count: results.length, passed, passRate: passed / results.length },
      similarity: {
        kind: 'object',
        keys: { f1: { kind: 'number', count: f1s.length, mean, stddev: 0 } },
      },
    },
    latencyMs: { p50: percentile(results, 0.5), p95: percentile(results, 0.95) },
  };
  items.unshift(
    completeCall({
      id: runId,
      traceId: runId,
      parentId: null,
      opName: EVALUATE_OP,
      displayName: `${options.evaluation} · ${options.model}`,
      startedAt: options.startedAt,
      endedAt: t,
      inputs: { dataset: options.datasetRef, model: options.model },
      output: summary,
      summary: { latencyMs: t - options.startedAt, status: 'success' },
    }),
  );
  await seeder.calls(items);
  return { id: runId, traceId: runId, rowCallIds };
}

function percentile(results: readonly EvaluationRowResult[], q: number): number {
  const sorted = results.map((r) => r.latencyMs).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}
