import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { onTestFinished } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const sources: Record<string, string> = {
  '@weft/sdk': join(repoRoot, 'packages/sdk/src/index.ts'),
  '@weft/sdk/eval': join(repoRoot, 'packages/sdk/src/eval.ts'),
  '@weft/sdk/errors': join(repoRoot, 'packages/sdk/src/errors.ts'),
  '@weft/sdk/diagnostics': join(repoRoot, 'packages/sdk/src/diagnostics.ts'),
  '@weft/sdk/mcp': join(repoRoot, 'packages/sdk/src/integrations/mcp/index.ts'),
  '@weft/sdk/monitor': join(repoRoot, 'packages/sdk/src/monitor/index.ts'),
  '@weft/sdk/replay': join(repoRoot, 'packages/sdk/src/replay/index.ts'),
  '@weft/sdk/openai': join(repoRoot, 'packages/sdk/src/integrations/openai/index.ts'),
  '@weft/protocol': join(repoRoot, 'packages/protocol/src/index.ts'),
  '@weft/server': join(repoRoot, 'packages/server/src/index.ts'),
};

/** A running child process and ways to wait on it. */
export interface ChildRun {
  readonly child: ChildProcess;
  /** Everything written to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process exits, however it exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first stdout line matching `pattern` (already printed or yet to come). */
  waitForLine(pattern: RegExp | string): Promise<string>;
  /** Sends a signal (SIGKILL by default); a no-op once exited. */
  kill(signal?: NodeJS.Signals): void;
}

/** Options of {@link runChild}. */
export interface RunChildOptions {
  args?: string[];
  /** Added to the parent's environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Extra `node` flags, e.g. `['--expose-gc']`. */
  execArgv?: string[];
  /** Open an IPC channel: `child.send()` / `child.on('message')` on both sides. @default false */
  ipc?: boolean;
  /**
   * Bare imports the bundle resolves to these files instead, e.g. a stand-in
   * for a platform module (`{ 'next/server': '/…/fake-next-server.ts' }`).
   */
  aliases?: Record<string, string>;
  /** Registers the cleanup (kill if still running). Defaults to vitest's `onTestFinished`. */
  register?: (cleanup: () => Promise<void>) => void;
}

/**
 * Runs `script` in a separate `node` process, for exit, signal and SIGKILL
 * tests. A `.ts` script is first bundled with esbuild, with `@weft/sdk`,
 * `@weft/protocol` and `@weft/server` resolved to their TypeScript sources
 * (like the vitest aliases), so the child runs the code under test without a
 * build step.
 */
export async function runChild(script: string, options: RunChildOptions = {}): Promise<ChildRun> {
  const entry = extname(script) === '.ts' ? await bundleScript(script, options.aliases) : script;
  const child = spawn(process.execPath, [...(options.execArgv ?? []), entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const lineWaiters: { pattern: RegExp | string; resolve: (line: string) => void }[] = [];
  const matches = (line: string, pattern: RegExp | string) =>
    typeof pattern === 'string' ? line.includes(pattern) : pattern.test(line);
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const start = stdout.lastIndexOf('\n') + 1;
    stdout += chunk;
    for (const line of stdout.slice(start).split('\n')) {
      for (const waiter of [...lineWaiters]) {
        if (!matches(line, waiter.pattern)) continue;
        lineWaiters.splice(lineWaiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      // The bundle is only needed to start the process; it goes with it.
      const removed = entry === script ? Promise.resolve() : rm(entry, { force: true });
      void removed.finally(() => resolve({ code, signal }));
    }),
  );
  const run: ChildRun = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForLine(pattern) {
      const line = stdout.split('\n').find((candidate) => matches(candidate, pattern));
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve, reject) => {
        lineWaiters.push({ pattern, resolve });
        exited.then(() =>
          reject(new Error(`child exited before printing ${String(pattern)}; stderr:\n${stderr}`)),
        );
      });
    },
    kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
  (options.register ?? onTestFinished)(async () => {
    run.kill('SIGKILL');
    await exited;
  });
  return run;
}

let bundles = 0;

/**
 * Bundles a TypeScript entry into an ESM file under node_modules/.cache, so
 * bare imports resolve from the repo and `@weft/*` entries from their
 * sources; for a child that something else starts (an MCP client's stdio
 * transport). The caller removes the file when done.
 */
export async function bundleScript(script: string, aliases: Record<string, string> = {}): Promise<string> {
  const { build } = await import('esbuild');
  const outDir = join(repoRoot, 'node_modules/.cache/weft-harness');
  await mkdir(outDir, { recursive: true });
  // Unique per bundle: test files run in parallel workers and may bundle the same script at once.
  bundles += 1;
  const outfile = join(
    outDir,
    `${createHash('sha256').update(script).digest('hex').slice(0, 12)}-${process.pid}-${bundles}.mjs`,
  );
  await build({
    entryPoints: [script],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'error',
    plugins: [
      {
        name: 'weft-sources',
        setup(b) {
          b.onResolve({ filter: /^@weft\// }, (args) =>
            Object.hasOwn(sources, args.path) ? { path: sources[args.path]! } : undefined,
          );
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            Object.hasOwn(aliases, args.path) ? { path: aliases[args.path]! } : undefined,
          );
          // Every other bare import stays external and resolves from the repo's node_modules at run time.
          b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
          // Source files that find files relative to themselves (the server's `../package.json`, its UI
          // folder) keep their own location: each one's import.meta.url becomes its original file URL.
          b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
            const source = await readFile(args.path, 'utf8');
            const url = JSON.stringify(pathToFileURL(args.path).href);
            return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
          });
        },
      },
    ],
    absWorkingDir: dirname(script),
  });
  return outfile;
}
