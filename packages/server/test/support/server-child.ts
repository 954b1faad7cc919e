import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerOptions } from '@weft/server';
import { type RegisterCleanup, tempDir } from '@weft/test-server';
import { onTestFinished } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./serve-with-options.mjs', import.meta.url));
const PROBER = fileURLToPath(new URL('./health-prober.mjs', import.meta.url));
const BUILD = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** A real server in a process of its own, whose memory and descriptors the test can bound and read. */
export interface ServerChild {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** The SQLite file it serves: `options.dbPath`, or one in a fresh temp folder removed when it stops. */
  readonly dbPath: string | undefined;
  stderr(): string;
  /** Peak resident memory of the server process so far (`VmHWM`), in MiB. */
  peakRssMib(): Promise<number>;
}

/**
 * Starts @weft/server's build in a child process with `options` (JSON: no
 * streams or functions), optionally under `wrap`, a command that ends by
 * running the arguments after it (`sh -c 'ulimit -n 256 && exec "$@"' sh`,
 * `unshare … sh -c 'mount … && exec "$@"' sh`), so the wrapped process is
 * the server itself. Killed by the cleanup `register` takes (the test's end
 * by default). Without `dbPath` or `storage` it serves SQLite in a fresh
 * temp folder, removed once it is killed: the server's own default,
 * `./.weft/weft.db`, would land in the working folder and carry data from
 * one run into the next. Build first (`npm run build`).
 */
export async function startServerChild({
  options = {},
  wrap = [],
  register = onTestFinished,
}: {
  options?: Omit<ServerOptions, 'logStream' | 'uiDir'>;
  wrap?: string[];
  register?: Exclude<RegisterCleanup, false>;
} = {}): Promise<ServerChild> {
  if (!existsSync(BUILD)) throw new Error(`${BUILD} is missing: build @weft/server first (npm run build).`);
  const dataDir = options.dbPath === undefined && options.storage === undefined ? await tempDir() : undefined;
  const served = dataDir === undefined ? options : { ...options, dbPath: join(dataDir, 'weft.db') };
  const [command, ...args] = [...wrap, process.execPath, SCRIPT];
  const child = spawn(command as string, args, {
    env: { ...process.env, WEFT_TEST_SERVER_OPTIONS: JSON.stringify(served) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  register(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${err}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    dbPath: served.dbPath,
    stderr: () => err,
    async peakRssMib() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
      return kib / 1024;
    },
  };
}

/**
 * Connections the server has established on `port` (its side, from
 * /proc/net/tcp and tcp6): what a test reads when the client side cannot
 * see its connection go (a client that never reads gets no event).
 */
export async function establishedConnections(port: number): Promise<number> {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const [, localAddress, , state] = line.trim().split(/\s+/);
      if (localAddress?.endsWith(local) && state === '01') count++;
    }
  }
  return count;
}

/** What {@link probeHealth} saw: how many probes, the slowest, the 99th percentile, and how many were not 200. */
export interface HealthProbes {
  probes: number;
  slowestMs: number;
  p99Ms: number;
  failures: number;
  /** The reads of `readProject`'s newest calls between probes, when asked for. */
  read?: Omit<HealthProbes, 'read'>;
}

/**
 * Probes `server`'s `/health` back to back from a process of its own (so the
 * load the test itself sends does not delay the probe) while `load` runs,
 * and, with `readProject`, reads that project's newest calls between probes;
 * resolves with `load`'s result and what the probes saw.
 */
export async function probeHealth<T>(
  server: Pick<ServerChild, 'url'>,
  load: () => Promise<T>,
  { readProject }: { readProject?: string } = {},
): Promise<{ result: T; health: HealthProbes }> {
  const args = readProject === undefined ? [PROBER, server.url] : [PROBER, server.url, readProject];
  const prober = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  onTestFinished(() => {
    if (prober.exitCode === null) prober.kill('SIGKILL');
  });
  let out = '';
  prober.stdout.setEncoding('utf8');
  const exited = new Promise<void>((resolve) => prober.once('exit', () => resolve()));
  await new Promise<void>((resolve) =>
    prober.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.startsWith('probing\n')) resolve();
    }),
  );
  const result = await load();
  prober.stdin.end();
  await exited;
  const health = JSON.parse(out.slice('probing\n'.length)) as HealthProbes;
  return { result, health };
}
