import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface TestServer {
  url: string;
  dir: string;
  close(): Promise<void>;
}

/**
 * A real trace server on 127.0.0.1:0 with SQLite in a fresh temp folder:
 * in-process from @weft/server's source, or with WEFT_TEST_SERVER=child in a
 * child process from its build (`npx tsup` in packages/server), so its work
 * does not share the test's event loop.
 */
export async function startTestServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-sdk-test-'));
  if (process.env.WEFT_TEST_SERVER !== 'child') {
    const { startServer } = await import('@weft/server');
    const server = await startServer({ host: '127.0.0.1', port: 0, dbPath: join(dir, 'weft.db') });
    return {
      url: server.url,
      dir,
      async close() {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const script = `
    const { startServer } = await import('@weft/server');
    const server = await startServer({ host: '127.0.0.1', port: 0, dbPath: ${JSON.stringify(join(dir, 'weft.db'))} });
    process.stdout.write(server.url + '\\n');
    process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
  `;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [url] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`test server exited early with code ${code}`);
    }),
  ])) as [string];
  return {
    url,
    dir,
    async close() {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
