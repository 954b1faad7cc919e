import type { CallFilter, EvaluatorStatus } from '../../api/index.js';

/** A scorer in a few words: `code` or `LLM judge (model)`. */
export function scorerText(scorer: EvaluatorStatus['rule']['scorer']): string {
  return scorer.type === 'code' ? 'code (your process)' : `LLM judge (${scorer.model})`;
}

/** The filters of a rule as one line, `every call` without any. */
export function filterText(filter: CallFilter | undefined): string {
  if (filter === undefined) return 'every call';
  const parts = Object.entries(filter).map(([key, value]) =>
    key === 'parentId' && value === null ? 'root calls' : `${key} ${JSON.stringify(value)}`,
  );
  return parts.length === 0 ? 'every call' : parts.join(', ');
}
