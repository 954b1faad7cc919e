import type { CallSummary } from '@weft/protocol';
import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { decodeSpanUsage, encodeSpanUsage, type SpanCallPut } from '../span-usage.js';
import { totalTokensOf } from '../total-tokens.js';
import { rollUpUsage, summaryWithUsage, type UsageNode, type UsageTree } from '../usage-rollup.js';
import { END, START, toStoredValue, type CallHalfRow } from './call-halves.js';
import type { ClickHouseTableTarget } from './clickhouse-connection.js';
import { inList, sqlLiteral } from './sql-literal.js';
import { nextSeq } from './write-sequence.js';

/** Aliases carry an `r_` prefix: an alias equal to a column name would replace it in the other aggregates. */
interface TraceRow {
  id: string;
  r_parent_id: string;
  r_span_usage: string;
  r_summary: string;
}

interface EndRow {
  id: string;
  r_ended_at: number;
  r_output: string;
  r_exception: string;
  r_latency_given: number;
  r_status: string;
  r_search_end: string;
}

/** A call id's first 8 bytes as its UUID text ('xxxxxxxx-xxxx-xxxx-'): every call of a trace starts so (`trace-ids.ts`). */
const TRACE_PREFIX_LENGTH = 19;

/**
 * Rolls usage up the traces of calls made from OTLP spans (see
 * `rollUpUsage`), as `Storage.ingestSpanCalls` states. The span's own usage rides on its
 * start half (`span_usage`, migration 3), which the roll-up never rewrites;
 * a changed total is a new copy of the call's end half (newer `seq`) with
 * the new summary, token total and cost.
 *
 * Each ingest reads the touched traces once — their calls share the trace
 * id's first 8 bytes, a range of the `(project, id)` key — and computes in
 * memory. Two replicas rolling up the same trace at the same moment may
 * leave an ancestor one request behind until the trace's next ingest
 * (ClickHouse has no transaction to serialize two replicas' roll-ups).
 */
export class ClickHouseSpanUsageStore {
  readonly #target: ClickHouseTableTarget;

  constructor(target: ClickHouseTableTarget) {
    this.#target = target;
  }

  /** The `span_usage` value of a span call's start half, set on the rows `callHalfRows` made. */
  static markStartRows(rows: CallHalfRow[], span: SpanCallPut): CallHalfRow[] {
    for (const row of rows) if (row.half === START) row.span_usage = encodeSpanUsage(span);
    return rows;
  }

  /**
   * After the spans' rows are inserted: recomputes the totals of each and of
   * its span-call ancestors. Returns the summaries it rewrote.
   */
  async rollUp(project: string, spans: readonly SpanCallPut[]): Promise<Map<string, CallSummary>> {
    const rewritten = new Map<string, CallSummary>();
    if (spans.length === 0) return rewritten;
    const { connection, table, insertSettings } = this.#target;
    const prefixes = [...new Set(spans.map((span) => span.call.id.slice(0, TRACE_PREFIX_LENGTH)))];
    const rows = await connection.rows<TraceRow>(`
      SELECT id,
        argMaxIf(parent_id, seq, half = ${START}) AS r_parent_id,
        argMaxIf(span_usage, seq, half = ${START}) AS r_span_usage,
        argMaxIf(summary, seq, half = ${END}) AS r_summary
      FROM ${table}
      WHERE project = ${sqlLiteral(project)} AND (${prefixes.map((p) => `id LIKE ${sqlLiteral(`${p}%`)}`).join(' OR ')})
      GROUP BY id
      HAVING max(half = ${START}) = 1`);
    const summaries = new Map<string, CallSummary | null>();
    const nodes = new Map<string, UsageNode>();
    const children = new Map<string, UsageNode[]>();
    for (const row of rows) {
      const summary =
        row.r_summary === ''
          ? null
          : (decodeMsgpack(Buffer.from(row.r_summary, 'base64')) as CallSummary | null);
      summaries.set(row.id, summary);
      const node: UsageNode = {
        id: row.id,
        parentId: row.r_parent_id === '' ? null : row.r_parent_id,
        span: decodeSpanUsage(row.r_span_usage),
        usage: summary?.usage,
      };
      nodes.set(node.id, node);
      if (node.parentId !== null) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node]);
    }
    const tree: UsageTree = { node: (id) => nodes.get(id), children: (id) => children.get(id) ?? [] };
    const changed = rollUpUsage(
      tree,
      spans.map((span) => span.call.id),
    );
    if (changed.size === 0) return rewritten;
    const ends = await connection.rows<EndRow>(`
      SELECT id,
        argMaxIf(ended_at, seq, half = ${END}) AS r_ended_at,
        argMaxIf(output, seq, half = ${END}) AS r_output,
        argMaxIf(exception, seq, half = ${END}) AS r_exception,
        argMaxIf(latency_given, seq, half = ${END}) AS r_latency_given,
        argMaxIf(status, seq, half = ${END}) AS r_status,
        argMaxIf(search_end, seq, half = ${END}) AS r_search_end
      FROM ${table}
      WHERE project = ${sqlLiteral(project)} AND id IN ${inList([...changed.keys()])}
      GROUP BY id
      HAVING max(half = ${END}) = 1`);
    const seq = nextSeq();
    const updates: CallHalfRow[] = [];
    for (const end of ends) {
      const stored = summaries.get(end.id);
      if (stored === undefined || stored === null) continue;
      const summary = summaryWithUsage(stored, changed.get(end.id));
      rewritten.set(end.id, summary);
      updates.push({
        project,
        id: end.id,
        half: END,
        seq,
        event_ms: end.r_ended_at,
        ended_at: end.r_ended_at,
        output: end.r_output,
        exception: end.r_exception,
        summary: toStoredValue(summary, encodeMsgpack),
        latency_given: end.r_latency_given,
        status: end.r_status,
        search_end: end.r_search_end,
        total_tokens: totalTokensOf(summary) ?? -1,
        cost_usd: summary.costUsd ?? -1,
      });
    }
    if (updates.length > 0) await connection.insert(table, updates, insertSettings);
    return rewritten;
  }
}
