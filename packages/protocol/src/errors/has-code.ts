import type { WeftErrorCode } from './error-codes.js';
import { WeftError } from './weft-error.js';

/**
 * The one way to check an error's code: true when `value` is a Weft error
 * (from any copy of the package, see {@link WeftError.isInstance}) with this
 * `code`. Narrows `value`, and a misspelt code does not compile.
 *
 * ```ts
 * try { await weft.publish(value, { name }) }
 * catch (error) { if (hasCode(error, 'WEFT_PUBLISH_FAILED')) … else throw error }
 * ```
 */
export function hasCode<C extends WeftErrorCode>(
  value: unknown,
  code: C,
): value is WeftError & { readonly code: C } {
  return WeftError.isInstance(value) && value.code === code;
}
