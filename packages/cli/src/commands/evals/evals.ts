import { EVALUATE_OP, evaluationSummary } from '@weft/protocol';
import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { formatTime } from '../../render/index.js';
import { type RunFacts, runFacts } from '../../run-comparison/index.js';
import { fetchCalls, resolveProject } from '../../server-api/index.js';
import { type Column, writeRows } from '../output-format.js';
import type { EvalsOptions } from './evals-options.js';

/** A run as `weft evals` lists it (and its `--json` shape). */
export interface EvalRow extends RunFacts {
  traceId: string;
  startedAt: number;
}

const scoresLine = (row: EvalRow) =>
  Object.entries(row.summary?.scores ?? {})
    .flatMap(([name, s]) =>
      s.kind === 'object'
        ? Object.entries(s.keys).map(([k, v]) => [`${name}.${k}`, v] as const)
        : [[name, s] as const],
    )
    .map(
      ([name, s]) =>
        `${name} ${s.kind === 'number' ? s.mean.toFixed(3) : `${(s.passRate * 100).toFixed(1)}%`}`,
    )
    .join(' · ');

const COLUMNS: readonly Column<EvalRow>[] = [
  {
    title: 'started (UTC)',
    cell: (r) => formatTime(r.startedAt),
    raw: (r) => new Date(r.startedAt).toISOString(),
  },
  { title: 'evaluation', cell: (r) => r.evaluation ?? '-' },
  { title: 'model', cell: (r) => r.model ?? '-' },
  { title: 'status', cell: (r) => r.status },
  {
    title: 'rows',
    cell: (r) => (r.summary ? `${r.summary.completed}/${r.summary.rows * r.summary.trials}` : '-'),
  },
  { title: 'errors', cell: (r) => (r.summary ? String(r.summary.errors) : '-') },
  { title: 'scores', cell: scoresLine },
  { title: 'run', cell: (r) => r.id },
];

/**
 * `weft evals`: the project's evaluation runs (its `Evaluation.evaluate`
 * calls), newest first. A run with no summary (it crashed, or still runs)
 * still shows its evaluation and model, read from its inputs.
 */
export async function evals(options: EvalsOptions, io: CliIo): Promise<number> {
  const target = { url: options.url, token: options.token };
  const project = await resolveProject(target, options.project);
  const { calls, more } = await fetchCalls(
    target,
    { project, opName: EVALUATE_OP, sort: { field: 'startedAt', direction: 'desc' } },
    options.limit,
  );
  const rows: EvalRow[] = calls.map((call) => {
    const summary = evaluationSummary.safeParse(call.output);
    return {
      ...runFacts(call, summary.success ? summary.data : undefined),
      traceId: call.traceId,
      startedAt: call.startedAt,
    };
  });
  if (rows.length === 0 && options.format === 'table') {
    io.stdout.write(`No evaluation runs in project ${project}.\n`);
    return ExitCode.ok;
  }
  writeRows(io, options.format, COLUMNS, rows, () => rows);
  if (options.format === 'table' && more)
    io.stdout.write(`More runs match (raise --limit, now ${options.limit}).\n`);
  return ExitCode.ok;
}
