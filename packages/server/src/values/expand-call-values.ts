import { type Call, collectValueRefs, expandValueRefs, type TraceColumnsResponse } from '@weft/protocol';
import type { Storage } from '../storage/index.js';
import { resolveValues } from './resolve-values.js';

/**
 * `calls` with every deduplicated value expanded in their inputs, output and
 * attributes, so every reader (the read API, the UI, the CLI, exports,
 * evaluation compare, datasets made from calls) gets the values as they were
 * traced. Calls without markers are returned as they are; one lookup round
 * per project and level serves the whole page.
 */
export async function expandCallValues<T extends Call>(storage: Storage, calls: T[]): Promise<T[]> {
  const byProject = new Map<string, Set<string>>();
  for (const call of calls) {
    let refs = byProject.get(call.project);
    const before = refs?.size ?? 0;
    refs ??= new Set();
    collectValueRefs(call.inputs, refs);
    collectValueRefs(call.output, refs);
    collectValueRefs(call.attributes, refs);
    if (refs.size > before) byProject.set(call.project, refs);
  }
  if (byProject.size === 0) return calls;
  const resolved = new Map<string, Map<string, unknown>>();
  for (const [project, refs] of byProject) resolved.set(project, await resolveValues(storage, project, refs));
  return calls.map((call) => {
    const values = resolved.get(call.project);
    if (values === undefined) return call;
    return {
      ...call,
      inputs: expandValueRefs(call.inputs, values) as Record<string, unknown>,
      output: expandValueRefs(call.output, values),
      attributes: expandValueRefs(call.attributes, values) as Record<string, unknown>,
    };
  });
}

/**
 * `columns` with every deduplicated value expanded in the attributes its
 * calls point at (a light call has no inputs or output), as
 * {@link expandCallValues} expands them in calls: each distinct value once,
 * not once per call (a trace's calls share most of their attributes).
 */
export async function expandTraceColumnValues(
  storage: Storage,
  columns: TraceColumnsResponse,
): Promise<TraceColumnsResponse> {
  const attributes = new Set(columns.attributes);
  const refs = new Set<string>();
  for (const at of attributes) collectValueRefs(columns.values[at], refs);
  if (refs.size === 0) return columns;
  const resolved = await resolveValues(storage, columns.project, refs);
  const values = [...columns.values];
  for (const at of attributes) values[at] = expandValueRefs(values[at], resolved);
  return { ...columns, values };
}
