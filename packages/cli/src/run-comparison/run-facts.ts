import { type Call, type EvaluationSummary, parseRef } from '@weft/protocol';

/** What the side-by-side table says about a run, from its summary or, when it has none (crashed, still running), its inputs. */
export interface RunFacts {
  id: string;
  status: Call['status'];
  evaluation: string | undefined;
  model: string | undefined;
  summary: EvaluationSummary | undefined;
}

/**
 * The run's evaluation and model names: its summary's, else the
 * `Evaluation.evaluate` call's inputs (`evaluation`, and `model` as a name,
 * an object ref or a model object with a `name`), so a run that crashed
 * before writing a summary still says what it was.
 */
export function runFacts(run: Call, summary: EvaluationSummary | undefined): RunFacts {
  return {
    id: run.id,
    status: run.status,
    evaluation: summary?.evaluation ?? nameOf(run.inputs.evaluation),
    model: summary?.model ?? nameOf(run.inputs.model),
    summary,
  };
}

function nameOf(value: unknown): string | undefined {
  if (typeof value === 'string') {
    if (!value.startsWith('weft:///')) return value;
    try {
      const ref = parseRef(value);
      return 'name' in ref && typeof ref.name === 'string' ? ref.name : value;
    } catch {
      return value;
    }
  }
  if (typeof value === 'object' && value !== null) {
    const name = (value as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return undefined;
}
