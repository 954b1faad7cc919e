import { canonicalJson } from '@weft/protocol';
import { z } from 'zod';
import type { Row } from '../datasets/index.js';
import { InvalidEvaluationOptionsError, ScorerInputError } from './errors/index.js';
import type { Scorer, ScorerArgs } from './scorer.js';

const column = z.string().min(1).default('expected');

const exactMatchOptions = z.strictObject({
  column,
  caseSensitive: z.boolean().default(true),
  trim: z.boolean().default(false),
});
const containsOptions = z.strictObject({ column, caseSensitive: z.boolean().default(true) });
const jsonValidOptions = z.strictObject({ requiredKeys: z.array(z.string()).default([]) });
const numericToleranceOptions = z.strictObject({
  column,
  absoluteTolerance: z.number().nonnegative().finite().default(0),
  relativeTolerance: z.number().nonnegative().finite().default(0),
});

/**
 * `true` when the output equals the row's expected value. Strings (and
 * numbers or booleans, compared as their text, since CSV columns are text)
 * are compared as strings; other values by canonical JSON, so key order does
 * not matter.
 * @param options.column Column holding the expected value. @default 'expected'
 * @param options.caseSensitive @default true
 * @param options.trim Ignore leading and trailing whitespace. @default false
 */
export function exactMatch(options: z.input<typeof exactMatchOptions> = {}): Scorer {
  const o = InvalidEvaluationOptionsError.parse('exactMatch', exactMatchOptions, options);
  return named('exactMatch', ({ output, row }: ScorerArgs) => {
    const expected = columnValue('exactMatch', row, o.column);
    const a = scalarText(output);
    const b = scalarText(expected);
    if (a !== undefined && b !== undefined) return normalize(a, o) === normalize(b, o);
    return sameJson(output, expected);
  });
}

/**
 * `true` when the output (its text, or its JSON for non-strings) contains the
 * expected value; an array of expected values must all be contained.
 * @param options.column @default 'expected'
 * @param options.caseSensitive @default true
 */
export function contains(options: z.input<typeof containsOptions> = {}): Scorer {
  const o = InvalidEvaluationOptionsError.parse('contains', containsOptions, options);
  return named('contains', ({ output, row }: ScorerArgs) => {
    const expected = columnValue('contains', row, o.column);
    const needles = Array.isArray(expected) ? expected : [expected];
    const haystack = fold(
      typeof output === 'string' ? output : (safeJson(output) ?? String(output)),
      o.caseSensitive,
    );
    return needles.every((needle) => {
      const text = scalarText(needle);
      if (text === undefined) {
        throw new ScorerInputError(
          'contains',
          o.column,
          `column ${JSON.stringify(o.column)} must hold text or an array of text`,
        );
      }
      return haystack.includes(fold(text, o.caseSensitive));
    });
  });
}

/**
 * `true` when the output is valid JSON: a string that parses, or a value
 * that serializes. With `requiredKeys`, it must also be an object having them.
 * @param options.requiredKeys @default []
 */
export function jsonValid(options: z.input<typeof jsonValidOptions> = {}): Scorer {
  const o = InvalidEvaluationOptionsError.parse('jsonValid', jsonValidOptions, options);
  return named('jsonValid', ({ output }: ScorerArgs) => {
    let value: unknown = output;
    if (typeof output === 'string') {
      try {
        value = JSON.parse(output);
      } catch {
        return false;
      }
    } else if (safeJson(output) === undefined) {
      return false;
    }
    if (o.requiredKeys.length === 0) return true;
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      o.requiredKeys.every((key) => Object.hasOwn(value, key))
    );
  });
}

/**
 * `true` when the output, read as a number, is within tolerance of the
 * expected number: `|output − expected| ≤ max(absoluteTolerance,
 * relativeTolerance × |expected|)`. An output that is not a number fails
 * (`false`); an expected value that is not a number is a row error.
 * @param options.column @default 'expected'
 * @param options.absoluteTolerance @default 0
 * @param options.relativeTolerance @default 0
 */
export function numericTolerance(options: z.input<typeof numericToleranceOptions> = {}): Scorer {
  const o = InvalidEvaluationOptionsError.parse('numericTolerance', numericToleranceOptions, options);
  return named('numericTolerance', ({ output, row }: ScorerArgs) => {
    const raw = columnValue('numericTolerance', row, o.column);
    const expected = toNumber(raw);
    if (expected === undefined) {
      throw new ScorerInputError(
        'numericTolerance',
        o.column,
        `column ${JSON.stringify(o.column)} must hold a number, got ${JSON.stringify(raw)}`,
      );
    }
    const actual = toNumber(output);
    if (actual === undefined) return false;
    return (
      Math.abs(actual - expected) <= Math.max(o.absoluteTolerance, o.relativeTolerance * Math.abs(expected))
    );
  });
}

function named(name: string, fn: Scorer): Scorer {
  return Object.defineProperty(fn, 'name', { value: name });
}

function columnValue(scorer: string, row: Row, name: string): unknown {
  if (!Object.hasOwn(row, name)) {
    throw new ScorerInputError(scorer, name, `the row has no column ${JSON.stringify(name)}`);
  }
  return row[name];
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return undefined;
}

function normalize(text: string, o: { caseSensitive: boolean; trim: boolean }): string {
  return fold(o.trim ? text.trim() : text, o.caseSensitive);
}

function fold(text: string, caseSensitive: boolean): string {
  return caseSensitive ? text : text.toLowerCase();
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
