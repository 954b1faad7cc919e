import { InvalidArgumentError } from 'commander';
import {
  CALL_SORT_FORMS,
  callSortOf,
  type FilterValue,
  TIME_POINT_FORMS,
  timePointOf,
  typedValue,
} from '../../query/index.js';

// Value parsers of the filter flags of `weft calls`; commander names the flag when one throws.

/** `key=value` → `[key, typed value]`. */
export function parseKeyValue(text: string): [string, FilterValue] {
  const eq = text.indexOf('=');
  const key = eq < 0 ? '' : text.slice(0, eq).trim();
  if (key === '') throw new InvalidArgumentError('Expected key=value, e.g. env=prod, tier=2 or beta=true.');
  return [key, typedValue(text.slice(eq + 1).trim())];
}

/** `name` (any value) or `name=value`. */
export function parseFeedbackFilter(text: string): { name: string; value?: FilterValue } {
  const eq = text.indexOf('=');
  const name = (eq < 0 ? text : text.slice(0, eq)).trim();
  if (name === '')
    throw new InvalidArgumentError('Expected a feedback name, or name=value, e.g. thumbs=false.');
  return eq < 0 ? { name } : { name, value: typedValue(text.slice(eq + 1).trim()) };
}

const STATUSES = ['success', 'error', 'running'] as const;

/** A call status. */
export function parseStatus(text: string): (typeof STATUSES)[number] {
  if (!(STATUSES as readonly string[]).includes(text)) {
    throw new InvalidArgumentError(`Allowed choices are ${STATUSES.join(', ')}.`);
  }
  return text as (typeof STATUSES)[number];
}

/** Collects a repeated flag's values in order. */
export function collect<T>(parse: (text: string) => T) {
  return (text: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(text)];
}

/** A point in time (see `timePointOf`). */
export function parseTimePoint(text: string): number {
  const ms = timePointOf(text);
  if (ms === undefined) throw new InvalidArgumentError(`Expected ${TIME_POINT_FORMS}.`);
  return ms;
}

/** A sort order (see `callSortOf`). */
export function parseSort(text: string): NonNullable<ReturnType<typeof callSortOf>> {
  const sort = callSortOf(text);
  if (sort === undefined) throw new InvalidArgumentError(`Expected ${CALL_SORT_FORMS}.`);
  return sort;
}

export type { FilterValue };
