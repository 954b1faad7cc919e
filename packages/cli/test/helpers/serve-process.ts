import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// The real, built binary: what `npm run build` produces and a user runs.
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** A `weft serve` child process. */
export interface ServeProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the built `weft` binary with `args`; the environment is this one's without Weft's own variables, plus `env`. */
export function spawnWeft(
  args: string[],
  { cwd, env = {} }: { cwd: string; env?: Record<string, string> },
): ServeProcess {
  const { WEFT_TOKEN: _t, WEFT_URL: _u, WEFT_STORAGE: _s, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env } });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves with the URL `weft serve` prints once it listens; rejects if it exits first. */
export function listeningUrl(w: ServeProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(w.stdout());
      if (match) {
        w.child.stdout?.off('data', check);
        resolve(match[1] as string);
      }
    };
    w.child.stdout?.on('data', check);
    check();
    w.exited.then(({ code }) =>
      reject(new Error(`weft serve exited (${code}) before listening: ${w.stderr()}`)),
    );
  });
}

/** Kills a child if it still runs and waits for its exit. */
export async function killChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
