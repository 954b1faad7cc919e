import { createHash } from 'node:crypto';
import { type AttributeTerm, attributeTermsOf } from '../attribute-terms.js';

/*
 * Shared attribute terms (migration 15). Some attributes describe where a
 * call came from rather than the call itself: the OpenTelemetry resource
 * (`otel.resource.*`: service, SDK, host), the instrumentation scope
 * (`otel.scope.*`), the span kind, the GenAI operation, system and requested
 * model. Every span of one process, library and model carries the same
 * values, so indexing them as terms of each call wrote ~5 `call_attributes`
 * rows per span that all said the same thing (5 of a GenAI span's 5 terms;
 * ~5 µs of storage CPU each, bench/ingest-otlp-parts.mjs).
 *
 * Instead, the terms of those keys form the call's *term set*: each distinct
 * set is stored once per project in `call_term_sets` (its terms, keyed by
 * match like `call_attributes`), and the call gets one `call_attributes` row
 * naming its set (key '', kind 't', value the set's id; no filter can ask
 * for key '' or kind 't'). A filter on a shared key finds the sets holding
 * the term, then their calls (call-query-plan.ts), and also the call's own
 * terms, which rows written before migration 15 still hold: the filter
 * language and its answers are unchanged. The call's stored `attributes`
 * keep every value; only the index is shared.
 *
 * A set's id is the first 48 bits of the SHA-256 of its terms' JSON: the
 * same set gets the same id in every batch and process, with no lookup. Two
 * sets of one project sharing an id would make a filter on one match the
 * other's calls; with the few sets a project has (one per process, library
 * and model combination) that chance is below 10⁻⁹. Deleting calls (retention, deletion on
 * request) deletes the sets no remaining call names (trace-deleter.ts), so
 * the resource and model values of deleted calls are not kept; a set left
 * behind by a re-sent call whose attributes changed matches nothing.
 */

/** The `call_attributes` key and kind of the row that names a call's term set. */
export const TERM_SET_KEY = '';
export const TERM_SET_KIND = 't';

/** Keys whose terms go to the call's term set rather than its own rows. */
const SHARED_KEYS: ReadonlySet<string> = new Set([
  'otel.kind',
  'gen_ai.operation.name',
  'gen_ai.system',
  'gen_ai.provider.name',
  'gen_ai.request.model',
]);
const SHARED_PREFIXES = ['otel.resource.', 'otel.scope.'] as const;

/** Whether a filter on `key` is answered from term sets (as well as the call's own terms). */
export function isSharedTermKey(key: string): boolean {
  return SHARED_KEYS.has(key) || SHARED_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** One distinct term set: its id and its terms as JSON. */
export interface TermSet {
  id: number;
  terms: string;
}

/** What a call's attributes index as: its own terms as JSON (with its set's row), and its set. */
export interface CallTerms {
  json: string | null;
  set: TermSet | undefined;
}

/** Ids of the sets seen lately, by their terms' JSON (bounded: cleared when full). */
const knownSets = new Map<string, TermSet>();
const MAX_KNOWN_SETS = 1_000;

/** The attribute index terms of a call: its own, plus the row naming its term set when it has shared terms. */
export function callTermsOf(attributes: Record<string, unknown> | undefined): CallTerms {
  const terms = attributeTermsOf(attributes);
  if (terms.length === 0) return { json: null, set: undefined };
  const own: (AttributeTerm | [string, string, number])[] = [];
  const shared: AttributeTerm[] = [];
  for (const term of terms) (isSharedTermKey(term[0]) ? shared : own).push(term);
  if (shared.length === 0) return { json: JSON.stringify(own), set: undefined };
  const set = termSetOf(JSON.stringify(shared));
  own.push([TERM_SET_KEY, TERM_SET_KIND, set.id]);
  return { json: JSON.stringify(own), set };
}

function termSetOf(terms: string): TermSet {
  const known = knownSets.get(terms);
  if (known !== undefined) return known;
  const id = createHash('sha256').update(terms).digest().readUIntBE(0, 6);
  const set = { id, terms };
  if (knownSets.size >= MAX_KNOWN_SETS) knownSets.clear();
  knownSets.set(terms, set);
  return set;
}

/** The term set of each upsert row that has one (set by `upsertRow`, read by `callIndexKeys` on the same thread). */
export const rowTermSets = new WeakMap<object, TermSet>();

/** The distinct term sets of a batch's rows as the JSON `[[id, terms], …]` that {@link INSERT_TERM_SETS} reads. */
export function termSetsJson(rows: readonly object[]): string {
  const sets = new Map<number, string>();
  for (const row of rows) {
    const set = rowTermSets.get(row);
    if (set !== undefined) sets.set(set.id, set.terms);
  }
  if (sets.size === 0) return '[]';
  return `[${[...sets].map(([id, terms]) => `[${id},${terms}]`).join(',')}]`;
}

/** Stores a batch's term sets (`@termSets`, see {@link termSetsJson}); one already stored is left as it is. */
export const INSERT_TERM_SETS = `INSERT OR IGNORE INTO call_term_sets (project, key, kind, value, term_set)
  SELECT @project, t.value ->> 0, t.value ->> 1, t.value ->> 2, s.value ->> 0
  FROM json_each(@termSets) s, json_each(s.value -> 1) t`;

/** Migration 15's table. */
export const CALL_TERM_SETS_SCHEMA = `
  CREATE TABLE call_term_sets (
    project TEXT NOT NULL,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    value NOT NULL,
    term_set INTEGER NOT NULL,
    PRIMARY KEY (project, key, kind, value, term_set)
  ) WITHOUT ROWID;
`;

/** Migration 16: a deletion finds a set's rows by its id (the primary key leads with the terms). */
export const CALL_TERM_SETS_BY_SET = 'CREATE INDEX call_term_sets_set ON call_term_sets (project, term_set);';
