/**
 * Resolves after `ms`, or rejects with `signal.reason` when aborted first.
 * The timer is deliberately NOT unref'd: the run's promise is waiting on it,
 * and an unref'd timer would let the process exit mid-run with that promise
 * pending forever.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
