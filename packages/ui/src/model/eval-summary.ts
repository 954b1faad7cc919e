import type { Call, EvaluationSummary, ScorerSummary } from '../api/index.js';
import { plainOpName } from './call-metrics.js';

/** A run call's output as an evaluation summary, or undefined while running or when malformed. */
export function runSummary(call: Call): EvaluationSummary | undefined {
  const out = call.output as Partial<EvaluationSummary> | null;
  if (typeof out !== 'object' || out === null || typeof out.scores !== 'object') return undefined;
  return out as EvaluationSummary;
}

function statText(s: Exclude<ScorerSummary, { kind: 'object' }>): string {
  return s.kind === 'number' ? s.mean.toFixed(3) : `${(s.passRate * 100).toFixed(1)}%`;
}

/** `exact 66.7% · sim.f1 0.812`: a run's scores in one line. */
export function scoresLine(summary: EvaluationSummary): string {
  const parts: string[] = [];
  for (const [name, s] of Object.entries(summary.scores)) {
    if (s.kind === 'object')
      for (const [k, v] of Object.entries(s.keys)) parts.push(`${name}.${k} ${statText(v)}`);
    else parts.push(`${name} ${statText(s)}`);
  }
  return parts.join(' · ');
}

/** Code of the exception an interrupted run is ended with when another run resumes its checkpoint. */
const RUN_INTERRUPTED = 'WEFT_EVALUATION_RUN_INTERRUPTED';

/** What the Evaluations list shows of one run call, finished, failed, running or interrupted. */
export interface RunInfo {
  evaluation: string | undefined;
  model: string | undefined;
  state: 'running' | 'finished' | 'failed' | 'interrupted';
  summary: EvaluationSummary | undefined;
  /** For an interrupted run: the id of the run that resumed its checkpoint. */
  resumedBy: string | undefined;
}

function nameOf(value: unknown): string | undefined {
  if (typeof value === 'string') return plainOpName(value);
  if (value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string') {
    return (value as { name: string }).name;
  }
  return undefined;
}

/**
 * A run call as the list shows it. A run without a summary (interrupted,
 * failed, still running) still has a name and a model: the runner records
 * both as its inputs. An interrupted run's exception names the run that
 * resumed it (`RunInterruptedError`: "Run <id> resumed it …").
 */
export function runInfo(call: Call): RunInfo {
  const summary = runSummary(call);
  const inputs = call.inputs as Record<string, unknown>;
  const interrupted = call.exception?.code === RUN_INTERRUPTED;
  const resumedBy = interrupted
    ? /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/i.exec(
        call.exception?.message ?? '',
      )?.[1]
    : undefined;
  return {
    evaluation: summary?.evaluation ?? nameOf(inputs.evaluation) ?? call.displayName ?? undefined,
    model: summary?.model ?? nameOf(inputs.model),
    state:
      call.status === 'running'
        ? 'running'
        : interrupted
          ? 'interrupted'
          : call.status === 'error'
            ? 'failed'
            : 'finished',
    summary,
    resumedBy,
  };
}
