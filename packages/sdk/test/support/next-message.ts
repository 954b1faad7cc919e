import type { ChildProcess } from 'node:child_process';

/**
 * The next IPC message `{ type, … }` of the given `type` from a child started
 * with `runChild(…, { ipc: true })`; rejects if the child exits first.
 */
export function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      child.off('message', onMessage);
      resolve(message as T);
    };
    child.on('message', onMessage);
    child.once('exit', () => reject(new Error(`child exited before sending "${type}"`)));
  });
}
