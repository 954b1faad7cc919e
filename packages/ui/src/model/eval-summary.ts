import type { Call, EvaluationSummary, ScorerSummary } from '../api/index.js';

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
