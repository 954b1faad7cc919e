import type { Call, CallFilterParsed } from '@weft/protocol';
import { isRefUri } from '@weft/protocol';
import { plainOpName } from '../storage/index.js';

/**
 * Whether a call matches a filter of the calls query, decided on the call
 * itself (evaluators test each newly completed call). The same semantics as
 * the storage engines' queries: op names match every version unless a ref
 * is given, attributes match by equality (an array attribute by element),
 * `userId` is the `user.id` attribute, `tag` elements of `tags`, feedback by
 * name and value. Full-text search is not supported here (rules refuse it).
 */
export function callMatches(call: Call, filter: CallFilterParsed): boolean {
  if (filter.traceId !== undefined && call.traceId !== filter.traceId) return false;
  if (filter.parentId !== undefined && call.parentId !== filter.parentId) return false;
  if (filter.opName !== undefined) {
    const names = Array.isArray(filter.opName) ? filter.opName : [filter.opName];
    const plain = plainOpName(call.opName);
    if (!names.some((name) => (isRefUri(name) ? call.opName === name : plain === name))) return false;
  }
  if (
    filter.status !== undefined &&
    !(Array.isArray(filter.status) ? filter.status : [filter.status]).includes(call.status)
  )
    return false;
  if (filter.startedAfter !== undefined && call.startedAt < filter.startedAfter) return false;
  if (filter.startedBefore !== undefined && call.startedAt >= filter.startedBefore) return false;
  if (filter.sessionId !== undefined && call.sessionId !== filter.sessionId) return false;
  const attributes: [string, unknown][] = Object.entries(filter.attributes ?? {});
  if (filter.userId !== undefined) attributes.push(['user.id', filter.userId]);
  for (const tag of filter.tag === undefined ? [] : Array.isArray(filter.tag) ? filter.tag : [filter.tag]) {
    attributes.push(['tags', tag]);
  }
  for (const [key, value] of attributes) if (!attributeHas(call.attributes, key, value)) return false;
  if (filter.feedback !== undefined) {
    const { name, value } = filter.feedback;
    const found = (call.feedback ?? []).some(
      (f) => (name === undefined || f.name === name) && (value === undefined || f.value === value),
    );
    if (!found) return false;
  }
  return true;
}

/** An attribute by dotted key (`user.id` as a key or nested), equal to `value` or holding it in an array. */
function attributeHas(attributes: Record<string, unknown>, key: string, value: unknown): boolean {
  let stored: unknown = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
  if (stored === undefined) {
    stored = attributes;
    for (const part of key.split('.')) {
      stored =
        stored !== null && typeof stored === 'object' && !Array.isArray(stored)
          ? (stored as Record<string, unknown>)[part]
          : undefined;
    }
  }
  return Array.isArray(stored) ? stored.includes(value) : stored === value;
}
