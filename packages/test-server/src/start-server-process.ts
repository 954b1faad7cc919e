import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RegisterCleanup, registerCleanup } from './register-cleanup.js';
import { tempDir } from './temp-dir.js';

// One level up from src/ (under vitest) and dist/ (built) alike.
const SERVE_SCRIPT = fileURLToPath(new URL('../bin/serve.mjs', import.meta.url));
// The workspace copy of @weft/server the default child imports (its package exports no package.json to resolve).
const SERVER_BUILD = fileURLToPath(new URL('../../server/dist/index.js', import.meta.url));
const LISTENING = /listening on (http:\/\/\S+)/;

/** How a child process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A real Weft server in a process of its own, so a test can kill it. */
export interface ServerProcess {
  /** Base URL of the latest child; the same across `kill()` and `start()` when the child honours `WEFT_TEST_SERVER_PORT`. */
  readonly url: string;
  readonly port: number;
  /** The SQLite file the default script uses (unused when `storage` names another engine). */
  readonly dbPath: string;
  /** The temp folder made for this server, removed by `close()`. */
  readonly dir: string;
  /** The latest child; after `kill()` it is the one that exited (read its `signalCode`). */
  readonly child: ChildProcess;
  /** Everything the latest child wrote to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the latest child exits, however it exits. */
  readonly exited: Promise<ProcessExit>;
  /** Signals the child (SIGKILL by default: no graceful shutdown) and waits for it to exit; a no-op when none runs. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts a new child with the same options, data and port; a no-op while the latest one runs. */
  start(): Promise<void>;
  /** Kills the child (if running) and deletes the temp folder. Idempotent: later calls join the first. */
  close(): Promise<void>;
}

/** Options of {@link startServerProcess}. */
export interface ServerProcessOptions {
  /** Admin bearer token the server requires on /v1 routes (`WEFT_TEST_SERVER_TOKEN`). */
  token?: string;
  /**
   * Storage URL (`WEFT_TEST_SERVER_STORAGE`), e.g. a ClickHouse database.
   * @default SQLite at `dbPath`
   */
  storage?: string;
  /**
   * The Node script the child runs, with `args`. It must print
   * `listening on <url>` once it listens, as `weft serve` does.
   * @default this package's `bin/serve.mjs`: @weft/server's build, configured by `WEFT_TEST_SERVER_*` variables
   */
  script?: string;
  /** Arguments after the script, e.g. `['serve', '--port', '0']` for the CLI's binary. */
  args?: string[];
  /** Added to the environment, which is this process's without Weft's own `WEFT_TOKEN`, `WEFT_URL` and `WEFT_STORAGE`. */
  env?: Record<string, string>;
  /** Working folder of the child. @default the temp folder */
  cwd?: string;
  /**
   * Registers `close()`: vitest's `onTestFinished` (so call it inside a test),
   * `afterAll` from `beforeAll`, or `false` to close it yourself.
   * @default onTestFinished
   */
  register?: RegisterCleanup;
}

/**
 * Starts the real Weft server in a child process on 127.0.0.1 (a free port
 * first, the same one after `start()`), with SQLite in a fresh temp folder,
 * and registers its cleanup. For tests that need a separate process: SIGKILL
 * and restart, or the event loop not shared with the test. The default child
 * runs @weft/server's build, so build first (`npm run build`). For a server
 * in the test's own process, see `startTestServer`.
 */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const script = options.script ?? SERVE_SCRIPT;
  if (script === SERVE_SCRIPT) assertServerBuilt();
  const dir = await tempDir('weft-server-process-');
  const dbPath = join(dir, 'weft.db');
  const { WEFT_TOKEN: _t, WEFT_URL: _u, WEFT_STORAGE: _s, ...inherited } = process.env;
  let port = 0;
  let url = '';
  // The latest child; set by the first launch before this function returns.
  let current!: RunningChild;
  let closed: Promise<void> | undefined;

  const launch = async () => {
    const run = spawnChild(script, options.args ?? [], {
      cwd: options.cwd ?? dir,
      env: {
        ...inherited,
        WEFT_TEST_SERVER_PORT: String(port),
        WEFT_TEST_SERVER_DB_PATH: dbPath,
        WEFT_TEST_SERVER_STORAGE: options.storage ?? '',
        WEFT_TEST_SERVER_TOKEN: options.token ?? '',
        ...options.env,
      },
    });
    current = run;
    url = await run.listening;
    port = Number(new URL(url).port);
  };
  try {
    await launch();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  const server: ServerProcess = {
    get url() {
      return url;
    },
    get port() {
      return port;
    },
    dbPath,
    dir,
    get child() {
      return current.child;
    },
    stdout: () => current.stdout(),
    stderr: () => current.stderr(),
    get exited() {
      return current.exited;
    },
    async kill(signal = 'SIGKILL') {
      if (isRunning(current.child)) current.child.kill(signal);
      await current.exited;
    },
    async start() {
      if (!isRunning(current.child)) await launch();
    },
    close() {
      closed ??= (async () => {
        await server.kill('SIGKILL');
        await rm(dir, { recursive: true, force: true });
      })();
      return closed;
    },
  };
  registerCleanup(options.register, () => server.close());
  return server;
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

interface RunningChild {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<ProcessExit>;
  /** The URL the child prints once it listens; rejects if it exits first. */
  listening: Promise<string>;
}

function spawnChild(
  script: string,
  args: string[],
  { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv },
): RunningChild {
  const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }) as ProcessExit);
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = LISTENING.exec(out);
      if (match) resolve(match[1] as string);
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`server process exited (${code ?? signal}) before listening; stderr:\n${err}`)),
    );
  });
  return { child, stdout: () => out, stderr: () => err, exited, listening };
}

/** The default child imports @weft/server's build: say so plainly when it is missing. */
function assertServerBuilt(): void {
  if (!existsSync(SERVER_BUILD)) {
    throw new Error(
      `${SERVER_BUILD} is missing: build first (npm run build, or npx tsup in packages/server).`,
    );
  }
}
