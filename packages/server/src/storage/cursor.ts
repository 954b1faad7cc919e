import type { CallSortField } from '@weft/protocol';
import { InvalidRequestError } from '../errors/index.js';

/**
 * Position after the last row of a page: its sort key and id (the tie-break).
 * A call list sorted by op name keys on the name, then the start time (see
 * {@link callSortKey}).
 */
export interface CursorPosition {
  key: number | string | OpSortKey;
  id: string;
}

/** The op-name sort's key: the plain op name, then the start time (ms). */
export type OpSortKey = readonly [string, number];

/**
 * Encodes a keyset cursor as opaque base64url text. The sort it was made for
 * travels with it, so a cursor reused with another sort is refused rather
 * than silently skipping rows.
 */
export function encodeCursor(sort: string, position: CursorPosition): string {
  return Buffer.from(JSON.stringify([sort, position.key, position.id])).toString('base64url');
}

/** Decodes a cursor made by {@link encodeCursor}; throws `WEFT_INVALID_REQUEST` at `cursor` otherwise. */
export function decodeCursor(text: string, sort: string): CursorPosition {
  const fail = (reason: string): never => {
    throw new InvalidRequestError([{ path: 'cursor', message: reason }], 'query');
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return fail('not a cursor returned by this server; pass nextCursor back unchanged');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return fail('not a cursor returned by this server');
  const [cursorSort, key, id] = parsed as unknown[];
  if (cursorSort !== sort) {
    return fail(
      `the cursor was made for sort ${String(cursorSort)}, not ${sort}; keep the same sort while paging`,
    );
  }
  if ((typeof key !== 'number' && typeof key !== 'string' && !isOpSortKey(key)) || typeof id !== 'string') {
    return fail('not a cursor returned by this server');
  }
  return { key, id };
}

function isOpSortKey(key: unknown): key is OpSortKey {
  return Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'number';
}

/**
 * The key of a call-list cursor, checked against the sort it is used with:
 * a number (start time, latency) or, for `opName`, the op name and start
 * time. Both engines check it the same way, so a forged cursor is a 400
 * whichever stores the calls (ClickHouse refuses to compare a string with a
 * number, where SQLite would order them).
 */
export function callSortKey(field: CallSortField, key: CursorPosition['key']): number | OpSortKey {
  if (field === 'opName' ? isOpSortKey(key) : typeof key === 'number') return key as number | OpSortKey;
  throw new InvalidRequestError(
    [{ path: 'cursor', message: 'not a cursor returned by this server' }],
    'query',
  );
}
