import type { CallRecord, OpSpec } from '../calls/index.js';

/** What a {@link CallInterceptor} decided for one call. */
export type Interception =
  /** The call is served: its function does not run; the caller gets `output`, or `error` is thrown (rejected when the op is asynchronous). */
  | { readonly kind: 'serve'; readonly output: unknown; readonly error: unknown; readonly failed: boolean }
  /** The call runs with these arguments instead of the caller's (the interceptor has set `call.inputs` to match). */
  | { readonly kind: 'run'; readonly args: unknown[] };

/**
 * The one seam between `op()` and replay (`@weft/sdk/replay`): asked about
 * every traced call once it has started (its record exists, its inputs are
 * snapshotted) and before its function runs. `undefined` runs the call as
 * usual. It must not throw; it may set the call's `attributes` and `inputs`.
 */
export interface CallInterceptor {
  intercept(call: CallRecord, spec: OpSpec, args: readonly unknown[]): Interception | undefined;
}
