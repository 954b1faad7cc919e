import {
  type BatchItem,
  batchItem,
  CALL_ID,
  type CallBatch,
  callBatch,
  isTimestampMs,
  MAX_BATCH_ITEMS,
  PROJECT_NAME,
} from '@weft/protocol';
import { validate } from './validate.js';

const parseWithZod = validate(callBatch, 'body');

/**
 * Parses a call batch (`POST /v1/calls/batch`) as `callBatch` does, at a
 * fraction of its cost on the ingest hot path. Call records are checked by
 * hand against the same rules and, when they pass, used as they are — no
 * copy (zod rebuilds every object it parses, and that copying was most of
 * its cost). The hand check only ever accepts what the schema accepts
 * unchanged: any doubt (a rule broken, a key the schema does not know and
 * would strip) sends the WHOLE batch through the schema instead, which
 * answers the bad input with the usual 400 naming each offending field, or
 * parses it. Feedback and value items are parsed by the schema, one by one.
 */
export function parseCallBatch(body: unknown): CallBatch {
  return fastBatch(body) ?? parseWithZod(body);
}

/** `body` as a batch when the hand check passes it whole; `undefined` otherwise. */
function fastBatch(body: unknown): CallBatch | undefined {
  if (!isRecord(body) || !onlyKeys(body, BATCH_KEYS)) return undefined;
  const { project, items } = body;
  if (typeof project !== 'string' || !PROJECT_NAME.test(project)) return undefined;
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_BATCH_ITEMS) return undefined;
  const parsed: BatchItem[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (isCallRecord(item)) {
      parsed[i] = item as BatchItem;
      continue;
    }
    if (isRecord(item) && (item.type === 'feedback' || item.type === 'value')) {
      const other = batchItem.safeParse(item);
      if (!other.success) return undefined;
      parsed[i] = other.data;
      continue;
    }
    return undefined;
  }
  return { project, items: parsed };
}

const BATCH_KEYS = new Set(['project', 'items']);
const START_KEYS = new Set([
  'type',
  'id',
  'traceId',
  'parentId',
  'opName',
  'displayName',
  'startedAt',
  'inputs',
  'attributes',
  'sessionId',
]);
const END_KEYS = new Set(['type', 'id', 'endedAt', 'output', 'exception', 'summary']);
const COMPLETE_KEYS = new Set([...START_KEYS, ...END_KEYS]);
const EXCEPTION_KEYS = new Set(['name', 'message', 'stack', 'statusCode', 'type', 'code', 'cause']);
const USAGE_KEYS = new Set([
  'requests',
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cachedInputTokens',
  'cacheWriteTokens',
  'reasoningTokens',
  'costUsd',
]);
const CHILD_COUNT_KEYS = new Set(['success', 'error']);
const STATUSES = new Set(['running', 'success', 'error']);

/** A start, end or complete record that `callItem` accepts and would return unchanged. */
function isCallRecord(item: unknown): boolean {
  if (!isRecord(item)) return false;
  const type = item.type;
  const keys =
    type === 'start' ? START_KEYS : type === 'end' ? END_KEYS : type === 'complete' ? COMPLETE_KEYS : null;
  if (keys === null || !onlyKeys(item, keys) || !isCallId(item.id)) return false;
  if (type !== 'end') {
    if (!isCallId(item.traceId) || !(item.parentId === null || isCallId(item.parentId))) return false;
    if (!isString(item.opName, 1, 2_048) || !optional(item.displayName, (v) => isString(v, 0, 1_024)))
      return false;
    if (!isTimestamp(item.startedAt) || !isPlainRecord(item.inputs)) return false;
    if (!optional(item.attributes, isPlainRecord) || !optional(item.sessionId, (v) => isString(v, 1, 256)))
      return false;
  }
  if (type !== 'start') {
    if (!isTimestamp(item.endedAt) || !optional(item.exception, isException)) return false;
    if (!optional(item.summary, isSummary)) return false;
  }
  return true;
}

/** `exceptionInfo`, cause chain included. */
function isException(value: unknown): boolean {
  if (!isRecord(value) || !onlyKeys(value, EXCEPTION_KEYS)) return false;
  return (
    isString(value.name, 0, 1_000) &&
    typeof value.message === 'string' &&
    optional(value.stack, (v) => typeof v === 'string') &&
    optional(value.statusCode, Number.isSafeInteger) &&
    optional(value.type, (v) => isString(v, 0, 1_000)) &&
    optional(value.code, (v) => isString(v, 0, 1_000)) &&
    optional(value.cause, isException)
  );
}

/** `callSummary`: unknown keys are kept (a loose object), known ones checked. */
function isSummary(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return (
    optional(value.latencyMs, isNonNegative) &&
    optional(value.status, (v) => typeof v === 'string' && STATUSES.has(v)) &&
    optional(value.usage, isUsageByModel) &&
    optional(value.costUsd, isNonNegative) &&
    optional(value.timeToFirstTokenMs, isNonNegative) &&
    optional(value.childCounts, isChildCounts)
  );
}

function isUsageByModel(value: unknown): boolean {
  // `__proto__` would be assigned, not copied, by the record schema: leave it to zod.
  if (!isRecord(value) || Object.hasOwn(value, '__proto__')) return false;
  for (const key in value) if (!isUsage(value[key])) return false;
  return true;
}

function isUsage(value: unknown): boolean {
  if (!isRecord(value) || !onlyKeys(value, USAGE_KEYS)) return false;
  return (
    Number.isSafeInteger(value.requests) &&
    (value.requests as number) >= 0 &&
    isNonNegative(value.inputTokens) &&
    isNonNegative(value.outputTokens) &&
    isNonNegative(value.totalTokens) &&
    optional(value.cachedInputTokens, isNonNegative) &&
    optional(value.cacheWriteTokens, isNonNegative) &&
    optional(value.reasoningTokens, isNonNegative) &&
    optional(value.costUsd, isNonNegative)
  );
}

function isChildCounts(value: unknown): boolean {
  return (
    isRecord(value) &&
    onlyKeys(value, CHILD_COUNT_KEYS) &&
    optional(value.success, Number.isSafeInteger) &&
    optional(value.error, Number.isSafeInteger)
  );
}

const optional = (value: unknown, check: (value: unknown) => boolean): boolean =>
  value === undefined || check(value);
const isCallId = (value: unknown): boolean => typeof value === 'string' && CALL_ID.test(value);
const isString = (value: unknown, min: number, max: number): boolean =>
  typeof value === 'string' && value.length >= min && value.length <= max;
const isTimestamp = (value: unknown): boolean => Number.isFinite(value) && isTimestampMs(value);
const isNonNegative = (value: unknown): boolean => Number.isFinite(value) && (value as number) >= 0;

/** A plain object (what the body decoders make), as `valueRecord` checks. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const isRecord = isPlainRecord;

/** True when every own key of `value` is one of `keys` (a key the schema does not know would be stripped). */
function onlyKeys(value: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  for (const key in value) if (!keys.has(key)) return false;
  return true;
}
