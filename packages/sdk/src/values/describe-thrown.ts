import { types } from 'node:util';
import { head } from './well-formed.js';

const MAX_LENGTH = 1_000;

/**
 * A short text for a thrown value, for `unreadable` markers. Whatever was
 * thrown may itself be hostile (a revoked proxy, an object whose `message`
 * getter throws), so every read is guarded and the fallback is the type.
 */
export function describeThrown(thrown: unknown): string {
  let text: string;
  try {
    text = describe(thrown);
  } catch {
    text = `thrown ${typeOf(thrown)}`;
  }
  return head(text, MAX_LENGTH);
}

function describe(thrown: unknown): string {
  if (typeof thrown === 'object' && thrown !== null) {
    if (types.isNativeError(thrown)) {
      const { name, message } = thrown as { name: unknown; message: unknown };
      return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : ''}`;
    }
    return `thrown ${typeOf(thrown)}`;
  }
  if (typeof thrown === 'symbol') return 'thrown symbol';
  return String(thrown);
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : typeof value;
}
