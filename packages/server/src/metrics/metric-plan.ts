import { type CallFilterParsed, isRefUri, type MetricGroupBy, type MetricsQueryParsed } from '@weft/protocol';
import {
  CUTS,
  type CutKind,
  LEVEL_MS,
  type RollupLevel,
  type RollupOps,
  type RollupStatus,
} from '../storage/index.js';
import type { TimeBuckets } from './time-buckets.js';

/** Reads of one level: the bucket starts of its rows, as `[from, to)` ranges. */
export interface LevelRanges {
  level: RollupLevel;
  ranges: [number, number][];
}

/** How a metrics query is answered from rollups. */
export interface RollupPlan {
  source: 'rollup';
  cut: CutKind;
  value: string | undefined;
  ops: RollupOps;
  byValue: boolean;
  root: boolean | undefined;
  /** Statuses kept (all when undefined). */
  statuses: readonly RollupStatus[] | undefined;
  reads: LevelRanges[];
}

/** Why a query needs raw calls. */
export interface RawPlan {
  source: 'raw';
  reason: string;
}

const GROUP_CUT: Record<Exclude<MetricGroupBy, 'op'>, CutKind> = {
  model: 'model',
  version: 'version',
  user: 'user',
  tag: 'tag',
  session: 'session',
};

/**
 * Whether rollups answer the query, and how: the filter may name the op
 * (plain names), status, root calls (`parentId: null`), a time range on
 * whole minutes and ONE value of one cut (`version`, `user.id` or `userId`,
 * one `tag`, `sessionId`); the split may be by op or by a cut (the same cut
 * as a filtered one). Users and sessions are kept per hour for all ops only,
 * so with them the bucket edges must fall on whole hours and the op may
 * neither filter nor split. Anything else (text, other attributes, feedback,
 * trace or parent ids, op versions) needs raw calls.
 */
export function planMetrics(query: MetricsQueryParsed, buckets: TimeBuckets): RollupPlan | RawPlan {
  const filter: CallFilterParsed = query.filter ?? {};
  const raw = (reason: string): RawPlan => ({ source: 'raw', reason });
  if (filter.text !== undefined) return raw('full-text search');
  if (filter.feedback !== undefined) return raw('a feedback filter');
  if (filter.traceId !== undefined) return raw('a trace id');
  if (typeof filter.parentId === 'string') return raw('a parent id');
  const hasFeedbackMeasure = query.measures.some((m) => typeof m === 'object');
  if (hasFeedbackMeasure && filter.status !== undefined) return raw('a status filter on feedback');

  const values: { cut: CutKind; value: string }[] = [];
  for (const [key, value] of Object.entries(filter.attributes ?? {})) {
    const cut =
      key === 'version' ? 'version' : key === 'user.id' ? 'user' : key === 'tags' ? 'tag' : undefined;
    if (cut === undefined) return raw(`the attribute ${JSON.stringify(key)}`);
    values.push({ cut, value: String(value) });
  }
  if (filter.userId !== undefined) values.push({ cut: 'user', value: filter.userId });
  const tags = filter.tag === undefined ? [] : Array.isArray(filter.tag) ? filter.tag : [filter.tag];
  for (const tag of tags) values.push({ cut: 'tag', value: tag });
  if (filter.sessionId !== undefined) values.push({ cut: 'session', value: filter.sessionId });
  if (values.length > 1) return raw('more than one of version, user, tag and session');
  const filtered = values[0];

  const groupCut =
    query.groupBy === undefined || query.groupBy === 'op' ? undefined : GROUP_CUT[query.groupBy];
  if (filtered !== undefined && groupCut !== undefined && groupCut !== filtered.cut)
    return raw(`a ${filtered.cut} filter with a split by ${query.groupBy}`);
  const cut = filtered?.cut ?? groupCut ?? '';

  const names =
    filter.opName === undefined ? undefined : Array.isArray(filter.opName) ? filter.opName : [filter.opName];
  if (names?.some((name) => isRefUri(name))) return raw('an op version (ref)');
  const byOp = query.groupBy === 'op';
  if ((byOp || names !== undefined) && !CUTS[cut].perOp)
    return raw(`an op filter or split with ${cut} rollups`);
  const ops: RollupOps = byOp ? { each: true } : names !== undefined ? { names } : { all: true };

  const dataFrom = Math.max(buckets.starts[0] as number, filter.startedAfter ?? 0);
  const dataTo = Math.min(buckets.to, filter.startedBefore ?? Number.POSITIVE_INFINITY);
  const edges = [...buckets.starts, buckets.to].filter((edge) => edge > dataFrom && edge < dataTo);
  edges.unshift(dataFrom);
  edges.push(Math.max(dataFrom, dataTo));
  const finest = CUTS[cut].levels[0] as RollupLevel;
  if (edges.some((edge) => edge % LEVEL_MS[finest] !== 0))
    return raw(
      finest === 'm'
        ? 'a range not on whole minutes'
        : `bucket edges inside an hour (${cut} rollups are hourly)`,
    );

  const statuses =
    filter.status === undefined ? undefined : Array.isArray(filter.status) ? filter.status : [filter.status];
  return {
    source: 'rollup',
    cut,
    value: filtered?.value,
    ops,
    byValue: groupCut !== undefined,
    root: filter.parentId === null ? true : undefined,
    statuses,
    reads: coverEdges(edges, CUTS[cut].levels),
  };
}

/**
 * Reads covering consecutive buckets (`edges`: their boundaries) exactly:
 * each hour that lies inside one bucket is read from hour rows, the rest
 * from minute rows. Ranges stay within their bucket (the reads add a range
 * up into one row per group), so they never merge across a bucket edge.
 */
export function coverEdges(edges: readonly number[], levels: readonly RollupLevel[]): LevelRanges[] {
  const hourly = levels.includes('h');
  const minutely = levels.includes('m');
  const hours: [number, number][] = [];
  const minutes: [number, number][] = [];
  const push = (list: [number, number][], from: number, to: number) => {
    if (from < to) list.push([from, to]);
  };
  const hour = LEVEL_MS.h;
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i] as number;
    const to = edges[i + 1] as number;
    const innerFrom = Math.ceil(from / hour) * hour;
    const innerTo = Math.floor(to / hour) * hour;
    if (hourly && innerFrom < innerTo) {
      push(minutes, from, innerFrom);
      push(hours, innerFrom, innerTo);
      push(minutes, innerTo, to);
    } else if (minutely) {
      push(minutes, from, to);
    } else {
      push(hours, from, to);
    }
  }
  const reads: LevelRanges[] = [];
  if (hours.length > 0) reads.push({ level: 'h', ranges: hours });
  if (minutes.length > 0) reads.push({ level: 'm', ranges: minutes });
  return reads;
}
