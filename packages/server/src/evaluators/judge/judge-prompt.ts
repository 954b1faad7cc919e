import type { Call } from '@weft/protocol';

/** Longest text one placeholder puts into a prompt (the rest is cut with a marker). */
const MAX_VALUE_CHARS = 20_000;

/**
 * The judge's prompt for a call: the rule's template with `{{inputs}}`,
 * `{{output}}`, `{{expected}}` (an `expected` input or attribute),
 * `{{inputs.<name>}}`, `{{attributes.<name>}}`, `{{op}}` replaced (strings
 * as they are, anything else as JSON); an unknown placeholder is left as
 * written. Then the instruction to answer with the scores as JSON.
 */
export function judgePrompt(
  template: string,
  call: Call,
  scores: readonly {
    name: string;
    type: string;
    min?: number | undefined;
    max?: number | undefined;
    labels?: readonly string[] | undefined;
    description?: string | undefined;
  }[],
): string {
  const inputs = call.inputs as Record<string, unknown>;
  const attributes = call.attributes as Record<string, unknown>;
  const filled = template.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (whole, path: string) => {
    const [head, ...rest] = path.split('.');
    const key = rest.join('.');
    let value: unknown;
    if (head === 'inputs') value = key === '' ? inputs : inputs[key];
    else if (head === 'attributes') value = key === '' ? attributes : attributes[key];
    else if (head === 'output' && key === '') value = call.output;
    else if (head === 'expected' && key === '') value = inputs.expected ?? attributes.expected;
    else if (head === 'op' && key === '') value = call.opName;
    else return whole;
    return text(value);
  });
  const shape = scores
    .map((score) => {
      const range =
        score.type === 'number'
          ? `a number${score.min !== undefined ? ` from ${score.min}` : ''}${score.max !== undefined ? ` to ${score.max}` : ''}`
          : score.type === 'boolean'
            ? 'true or false'
            : `one of ${(score.labels ?? []).map((l) => JSON.stringify(l)).join(', ')}`;
      return `- "${score.name}": ${range}${score.description ? ` — ${score.description}` : ''}`;
    })
    .join('\n');
  return `${filled}\n\nAnswer with one JSON object and nothing else, with these keys:\n${shape}\nYou may add "reason": a short explanation.`;
}

function text(value: unknown): string {
  const shown = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return shown.length > MAX_VALUE_CHARS ? `${shown.slice(0, MAX_VALUE_CHARS)}…[cut]` : shown;
}
