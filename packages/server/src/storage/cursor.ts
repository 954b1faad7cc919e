import { InvalidRequestError } from '../errors/index.js';

/** Position after the last row of a page: its sort key and id (the tie-break). */
export interface CursorPosition {
  key: number | string;
  id: string;
}

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
  if ((typeof key !== 'number' && typeof key !== 'string') || typeof id !== 'string') {
    return fail('not a cursor returned by this server');
  }
  return { key, id };
}
