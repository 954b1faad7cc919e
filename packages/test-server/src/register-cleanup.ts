import { onTestFinished } from 'vitest';

/**
 * Where a server's `close()` is registered: a vitest hook such as
 * `onTestFinished` (the default: start the server inside a test) or `afterAll`
 * (start it in `beforeAll`), or `false` when the caller closes it itself.
 */
export type RegisterCleanup = ((cleanup: () => Promise<void>) => void) | false;

/** Registers `close` with `register` (vitest's `onTestFinished` when undefined). */
export function registerCleanup(register: RegisterCleanup | undefined, close: () => Promise<void>): void {
  if (register === false) return;
  (register ?? onTestFinished)(close);
}
