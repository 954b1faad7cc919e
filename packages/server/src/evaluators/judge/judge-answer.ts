import type { FeedbackValue, JudgeScore } from '@weft/protocol';

/** A judge's answer read against the rule's scores: the values, or what is wrong with it. */
export type JudgeVerdict =
  | { ok: true; scores: Record<string, FeedbackValue>; reason?: string }
  | { ok: false; error: string };

/**
 * Reads the judge's answer: the first JSON object in its text (models wrap
 * it in prose or a code fence now and then), with a value of the declared
 * type for every score — numbers within their bounds, labels among theirs.
 * Anything else is a malformed answer, named precisely.
 */
export function readVerdict(text: string, scores: readonly JudgeScore[]): JudgeVerdict {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end <= start)
    return { ok: false, error: `the judge's answer has no JSON object: ${preview(text)}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return {
      ok: false,
      error: `the judge's answer is not valid JSON (${(error as Error).message}): ${preview(text)}`,
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: `the judge's answer is not a JSON object: ${preview(text)}` };
  }
  const answer = parsed as Record<string, unknown>;
  const values: Record<string, FeedbackValue> = {};
  for (const score of scores) {
    const value = Object.hasOwn(answer, score.name) ? answer[score.name] : undefined;
    if (score.type === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return {
          ok: false,
          error: `score ${score.name} must be a number, got ${preview(JSON.stringify(value) ?? 'nothing')}`,
        };
      if ((score.min !== undefined && value < score.min) || (score.max !== undefined && value > score.max))
        return {
          ok: false,
          error: `score ${score.name} must be within ${score.min ?? '−∞'}…${score.max ?? '∞'}, got ${value}`,
        };
    } else if (score.type === 'boolean') {
      if (typeof value !== 'boolean')
        return {
          ok: false,
          error: `score ${score.name} must be true or false, got ${preview(JSON.stringify(value) ?? 'nothing')}`,
        };
    } else if (typeof value !== 'string' || !(score.labels ?? []).includes(value)) {
      return {
        ok: false,
        error: `score ${score.name} must be one of ${(score.labels ?? []).join(', ')}, got ${preview(JSON.stringify(value) ?? 'nothing')}`,
      };
    }
    values[score.name] = value as FeedbackValue;
  }
  const reason = typeof answer.reason === 'string' ? answer.reason.slice(0, 10_000) : undefined;
  return reason === undefined ? { ok: true, scores: values } : { ok: true, scores: values, reason };
}

function preview(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
