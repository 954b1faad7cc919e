import type { ExceptionInfo } from '@weft/protocol';
import { errorName } from '../values/index.js';

const MAX_CAUSES = 16;
const MAX_TEXT = 64 * 1024;

function text(value: unknown, fallback: string): string {
  try {
    const s = typeof value === 'string' ? value : value === undefined ? fallback : String(value);
    return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…[truncated]` : s;
  } catch {
    return fallback;
  }
}

function read(obj: object, key: string): unknown {
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * What was thrown, as recorded: name, message, stack, the `cause` chain
 * (at most 16 deep, cycle-safe) and, when the value carries them, the facts
 * an API error is told apart by: HTTP `status`, its `type` and `code`. Never throws: a thrown non-Error, a
 * throwing getter or a Proxy becomes the best description available.
 */
export function exceptionInfo(thrown: unknown): ExceptionInfo {
  const seen = new Set<unknown>();
  const convert = (value: unknown, depth: number): ExceptionInfo => {
    seen.add(value);
    if (typeof value !== 'object' || value === null) {
      return { name: typeof value === 'symbol' ? 'Symbol' : 'NonError', message: text(value, typeof value) };
    }
    const info: ExceptionInfo = {
      // The class the caller would `instanceof` (`RateLimitError`), where `name` is a built-in's it inherited.
      name: text(errorName(value), 'Error') || 'Error',
      message: text(read(value, 'message'), ''),
    };
    const status = read(value, 'status') ?? read(value, 'statusCode');
    if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599)
      info.statusCode = status;
    const type = read(value, 'type');
    if (typeof type === 'string' && type.length > 0) info.type = text(type, '').slice(0, 1_000);
    const code = read(value, 'code');
    if ((typeof code === 'string' && code.length > 0) || typeof code === 'number')
      info.code = text(code, '').slice(0, 1_000);
    const stack = read(value, 'stack');
    if (typeof stack === 'string') info.stack = text(stack, '');
    const cause = read(value, 'cause');
    if (cause !== undefined && depth < MAX_CAUSES && !seen.has(cause)) info.cause = convert(cause, depth + 1);
    return info;
  };
  try {
    return convert(thrown, 0);
  } catch {
    return { name: 'Error', message: '[weft: the thrown value could not be described]' };
  }
}
