import { MAX_BATCH_ITEMS, spanToCall } from '@weft/protocol';
import { InvalidRequestError } from '../errors/index.js';
import { ForbiddenError, type ProjectScope } from '../middleware/index.js';
import type { SpanCallPut, Storage } from '../storage/index.js';
import type { TraceExportResult } from './otlp-codec.js';
import type { OtlpResourceSpans } from './otlp-spans.js';
import { projectOfResource, resourceOfCalls } from './trace-project.js';

/** How many distinct rejection reasons the `partialSuccess` message quotes. */
const QUOTED_REASONS = 3;

/** What {@link ingestTraces} needs to know about the request. */
export interface TraceIngestRequest {
  resourceSpans: readonly OtlpResourceSpans[];
  /** The `x-weft-project` header's project: every span goes there. */
  project: string | undefined;
  /** What the request's token may reach; checked for every project before anything is written. */
  scope: ProjectScope;
}

/**
 * Stores each span as a call (an upsert by the span's call id, so a re-sent
 * span updates its call and parents may come after children, in any
 * request; storage then rolls usage up each trace) and reports the spans it could not store as OTLP's partial
 * success: a bad id or time, no project, or a value storage cannot encode.
 * A project the token may not reach refuses the whole request (403) first.
 */
export async function ingestTraces(
  { storage }: { storage: Storage },
  request: TraceIngestRequest,
): Promise<TraceExportResult> {
  // A header project outside the token's scope is refused even for an empty request.
  if (request.project !== undefined) assertReachable(request.scope, request.project);
  const rejections = new Rejections();
  const byProject = new Map<string, SpanCallPut[]>();
  for (const { resource, spans, malformed } of request.resourceSpans) {
    rejections.add(malformed, 'a span that is not an object');
    const target = request.project === undefined ? projectOfResource(resource) : { project: request.project };
    if ('problem' in target) {
      rejections.add(spans.length, target.problem);
      continue;
    }
    assertReachable(request.scope, target.project);
    const calls = byProject.get(target.project) ?? [];
    byProject.set(target.project, calls);
    const callResource = resourceOfCalls(resource);
    for (const span of spans) {
      const mapping = spanToCall(span, callResource);
      if (mapping.status === 'mapped') calls.push({ call: mapping.call, usageScope: mapping.usageScope });
      else rejections.add(1, mapping.reason);
    }
  }
  for (const [project, calls] of byProject) {
    for (let i = 0; i < calls.length; i += MAX_BATCH_ITEMS) {
      await storeDroppingUnstorable(storage, project, calls.slice(i, i + MAX_BATCH_ITEMS), rejections);
    }
  }
  return rejections.result();
}

function assertReachable(scope: ProjectScope, project: string): void {
  if (scope.kind === 'projects' && !scope.projects.has(project)) throw new ForbiddenError(project);
}

/**
 * Storage refuses a whole batch when one call cannot be encoded and names
 * it; that call is dropped (and counted) and the rest written, so one bad
 * span never loses the others.
 */
async function storeDroppingUnstorable(
  storage: Storage,
  project: string,
  batch: SpanCallPut[],
  rejections: Rejections,
): Promise<void> {
  let items = batch;
  while (items.length > 0) {
    try {
      await storage.ingestSpanCalls(project, items);
      return;
    } catch (error) {
      const index = InvalidRequestError.isInstance(error) ? error.index : undefined;
      if (index === undefined) throw error;
      rejections.add(
        1,
        `span ${items[index]?.call.id ?? index} cannot be stored: ${(error as InvalidRequestError).issues[0]?.message ?? ''}`,
      );
      items = items.filter((_, i) => i !== index);
    }
  }
}

/** Counts rejected spans and keeps the first few distinct reasons for the message. */
class Rejections {
  #count = 0;
  readonly #reasons = new Set<string>();

  add(count: number, reason: string): void {
    if (count === 0) return;
    this.#count += count;
    if (this.#reasons.size < QUOTED_REASONS) this.#reasons.add(reason);
  }

  result(): TraceExportResult {
    if (this.#count === 0) return { rejectedSpans: 0, errorMessage: '' };
    const more = this.#count > this.#reasons.size ? ' …' : '';
    return {
      rejectedSpans: this.#count,
      errorMessage: `${this.#count} span${this.#count === 1 ? '' : 's'} rejected: ${[...this.#reasons].join('; ')}${more}`,
    };
  }
}
