import type { z } from 'zod';
import { describeOptionValue } from './describe-option-value.js';

/** One thing wrong with an options object, as every option error of the SDK words it. */
export interface OptionIssue {
  /** Dotted path of the bad option (`maxBatchBytes`, `scorers.1`); unknown keys joined by `,`; `''` for the options value itself. */
  readonly option: string;
  /** "`maxBatchBytes` must be a positive integer, got -1", "unknown option `projet`", or "options must be an object, got 42". */
  readonly detail: string;
}

/**
 * The issues of a failed options parse in the one shape option errors use:
 * the option named in backticks, what is wrong (the schema's message), and
 * what the caller passed (`describeOptionValue`). `input` is what was parsed.
 */
export function optionIssues(error: z.ZodError, input: unknown): OptionIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((key) => `\`${key}\``).join(', ');
      return {
        option: issue.keys.join(','),
        detail: `unknown option${issue.keys.length > 1 ? 's' : ''} ${names}`,
      };
    }
    const option = issue.path.map(String).join('.');
    const got = describeOptionValue(valueAt(input, issue.path));
    return { option, detail: `${option === '' ? 'options' : `\`${option}\``} ${issue.message}, got ${got}` };
  });
}

/** The first of {@link optionIssues}: what a single-issue option error reports. */
export function firstOptionIssue(error: z.ZodError, input: unknown): OptionIssue {
  // A failed parse has at least one issue.
  return optionIssues(error, input)[0]!;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  try {
    let value = input;
    for (const key of path) value = (value as Record<PropertyKey, unknown> | null | undefined)?.[key];
    return value;
  } catch {
    // A throwing getter or a Proxy: nothing to show rather than a second error.
    return undefined;
  }
}

/** An issue found by a check of its own (not a schema), in the same shape: "`option` problem, got value". */
export function optionIssue(option: string, problem: string, value: unknown): OptionIssue {
  return { option, detail: `\`${option}\` ${problem}, got ${describeOptionValue(value)}` };
}
