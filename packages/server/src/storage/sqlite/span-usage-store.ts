import type { Database, Statement } from 'better-sqlite3';
import type { CallComplete, CallSummary } from '@weft/protocol';
import { decodeSpanUsage, type SpanCallPut, spanUsageOf } from '../span-usage.js';
import { rollUpUsage, summaryWithUsage, type UsageNode, type UsageTree } from '../usage-rollup.js';
import { totalTokensOf } from '../total-tokens.js';
import type { BatchFollowUp } from './batch-follow-up.js';
import { fromBlob, toBlob } from './blob.js';

/** Told the summaries a roll-up rewrote (the metrics rollups count them). */
export type SummariesChanged = (summaries: ReadonlyMap<string, CallSummary>) => void;

interface NodeRow {
  id: string;
  parent_id: string | null;
  span_usage: string | null;
  summary: Uint8Array | null;
}

const NODE_COLUMNS = 'id, parent_id, span_usage, summary';

/** A child of one of a batch's calls, as the covering index gives it. */
interface ChildRow {
  id: string;
  parent_id: string;
}

/**
 * Rolls usage up the traces of calls made from OTLP spans after each ingest,
 * from their own usage (`calls.span_usage`, migration 4, written with the
 * call by the upsert) (see `rollUpUsage`). {@link followUp} runs it inside
 * the batch's own IMMEDIATE write transaction (one commit per batch, not two),
 * or, when a writer thread wrote the batch, in an IMMEDIATE transaction of
 * its own right after: either way the ancestors it reads cannot change under
 * it and two requests' roll-ups apply one after the other, each over
 * everything committed before it.
 */
export class SqliteSpanUsageStore {
  readonly #node: Statement;
  readonly #children: Statement;
  readonly #childrenOfBatch: Statement;
  readonly #setSummary: Statement;
  readonly #apply: (
    project: string,
    spans: readonly SpanCallPut[],
    calls: readonly CallComplete[],
    then: SummariesChanged,
  ) => void;

  constructor(db: Database) {
    this.#node = db.prepare(
      `SELECT ${NODE_COLUMNS} FROM calls WHERE project = ? AND id = ? AND has_start = 1`,
    );
    this.#children = db.prepare(`SELECT ${NODE_COLUMNS} FROM calls WHERE project = ? AND parent_id = ?`);
    // Ids only: `calls_parent` covers them, so the batch's own children (the
    // common case: a trace's spans exported together) cost no row reads.
    this.#childrenOfBatch = db.prepare(
      'SELECT id, parent_id FROM calls WHERE project = ? AND parent_id IN (SELECT value FROM json_each(?))',
    );
    this.#setSummary = db.prepare(
      'UPDATE calls SET summary = ?, total_tokens = ?, cost_usd = ? WHERE project = ? AND id = ?',
    );
    const apply = db.transaction(
      (
        project: string,
        spans: readonly SpanCallPut[],
        calls: readonly CallComplete[],
        then: SummariesChanged,
      ) => this.#rollUp(project, spans, calls, then),
    );
    this.#apply = (project, spans, calls, then) => apply.immediate(project, spans, calls, then);
  }

  /**
   * A batch of span calls as they are to be written, and the roll-up that
   * follows them. Each call is written with its totals over the batch (its
   * own usage plus what its descendants in the batch total), so a trace
   * exported together is written once, not inserted and then updated; the
   * follow-up (in the batch's transaction, or right after it) recomputes the
   * batch's calls and their ancestors over everything stored and rewrites
   * only the totals that calls outside the batch change. `then` gets the
   * summaries it rewrote, in the same transaction.
   */
  batch(
    project: string,
    spans: readonly SpanCallPut[],
    then: SummariesChanged,
  ): { calls: CallComplete[]; followUp: BatchFollowUp } {
    const calls = withBatchTotals(spans);
    return {
      calls,
      followUp: {
        inTransaction: () => this.#rollUp(project, spans, calls, then),
        alone: () => this.#apply(project, spans, calls, then),
      },
    };
  }

  #rollUp(
    project: string,
    spans: readonly SpanCallPut[],
    calls: readonly CallComplete[],
    then: SummariesChanged,
  ): void {
    const summaries = new Map<string, CallSummary | null>();
    const toNode = (row: NodeRow): UsageNode => {
      const summary = fromBlob<CallSummary | null>(row.summary, null);
      summaries.set(row.id, summary);
      return {
        id: row.id,
        parentId: row.parent_id,
        span: decodeSpanUsage(row.span_usage),
        usage: summary?.usage,
      };
    };
    // The calls of this batch are as just written (own usage in `span`, the
    // batch's totals in the summary): read them from memory, not back from the table.
    const written = new Map<string, UsageNode>();
    spans.forEach((span, index) => {
      const call = calls[index] as CallComplete;
      summaries.set(call.id, call.summary ?? null);
      written.set(call.id, nodeOf(span, call));
    });
    // The roll-up asks for the children of every call of the batch: one
    // statement for all of them instead of one per span; the children of the
    // ancestors beyond the batch are still read one call at a time.
    const batchChildren = new Map<string, UsageNode[]>();
    for (const id of written.keys()) batchChildren.set(id, []);
    const node = (id: string): UsageNode | undefined => {
      const known = written.get(id);
      if (known !== undefined) return known;
      const row = this.#node.get(project, id) as NodeRow | undefined;
      return row === undefined ? undefined : toNode(row);
    };
    const rows = this.#childrenOfBatch.all(project, JSON.stringify([...written.keys()])) as ChildRow[];
    // A batch that holds whole trees (every child of its calls, every parent
    // of its calls) was written with its final totals: nothing to rewrite.
    if (isClosed(written, rows)) {
      then(new Map());
      return;
    }
    // A child written by this batch is taken from memory (as stored, so the
    // same node): only the others are read and their summaries decoded.
    for (const row of rows) {
      const child = node(row.id);
      if (child !== undefined) batchChildren.get(row.parent_id)?.push(child);
    }
    const tree: UsageTree = {
      node,
      children: (id) => batchChildren.get(id) ?? (this.#children.all(project, id) as NodeRow[]).map(toNode),
    };
    const changed = rollUpUsage(
      tree,
      spans.map((span) => span.call.id),
    );
    const rewritten = new Map<string, CallSummary>();
    for (const [id, usage] of changed) {
      const stored = summaries.get(id);
      // A span call always has a summary; a row without one has no end to update.
      if (stored === undefined || stored === null) continue;
      const summary = summaryWithUsage(stored, usage);
      this.#setSummary.run(toBlob(summary), totalTokensOf(summary), summary.costUsd ?? null, project, id);
      rewritten.set(id, summary);
    }
    then(rewritten);
  }
}

/** A span call as the roll-up reads it: its own usage from the span, its totals from `call` (as written). */
function nodeOf(span: SpanCallPut, call: CallComplete): UsageNode {
  return { id: call.id, parentId: call.parentId, span: spanUsageOf(span), usage: call.summary?.usage };
}

/** True when every stored child of the batch's calls and every parent they name are calls of the batch. */
function isClosed(written: ReadonlyMap<string, UsageNode>, children: readonly ChildRow[]): boolean {
  for (const child of children) if (!written.has(child.id)) return false;
  for (const node of written.values())
    if (node.parentId !== null && !written.has(node.parentId)) return false;
  return true;
}

/**
 * The batch's calls with their totals over the batch alone: its own usage
 * plus what its children in the batch total (by `rollUpUsage`, over the
 * batch in memory). A call whose totals equal its own usage is kept as it is.
 */
function withBatchTotals(spans: readonly SpanCallPut[]): CallComplete[] {
  const nodes = new Map<string, UsageNode>();
  for (const span of spans) nodes.set(span.call.id, nodeOf(span, span.call));
  const children = new Map<string, UsageNode[]>();
  for (const node of nodes.values()) {
    if (node.parentId === null || !nodes.has(node.parentId)) continue;
    const siblings = children.get(node.parentId);
    if (siblings === undefined) children.set(node.parentId, [node]);
    else siblings.push(node);
  }
  // Only calls with children in the batch can total more than their own usage.
  if (children.size === 0) return spans.map((span) => span.call);
  const totals = rollUpUsage(
    { node: (id) => nodes.get(id), children: (id) => children.get(id) ?? [] },
    children.keys(),
  );
  return spans.map(({ call }) => {
    if (!totals.has(call.id) || call.summary === undefined) return call;
    return { ...call, summary: summaryWithUsage(call.summary, totals.get(call.id)) };
  });
}
