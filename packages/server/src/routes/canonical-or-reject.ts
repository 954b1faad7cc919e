import { canonicalJson, NotCanonicalError } from '@weft/protocol';
import { InvalidRequestError } from '../errors/index.js';

/**
 * Canonical text of a request value, or `WEFT_INVALID_REQUEST` naming where
 * in the body the value has no canonical form (binary data, a date, …).
 */
export function canonicalOrReject(value: unknown, bodyPath: string): string {
  try {
    return canonicalJson(value);
  } catch (error) {
    if (!(error instanceof NotCanonicalError)) throw error;
    const path = [bodyPath, ...error.path.map(String)].join('.');
    throw new InvalidRequestError([{ path, message: error.message }], 'body');
  }
}
