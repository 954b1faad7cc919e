// `npm run demo`: the quick start end to end, on the embedded default.
//
// 1. start the trace server (port 7420, or a free port if that one is taken;
//    data in ./.weft/weft.db),
// 2. run examples/quickstart.mjs in a child process with WEFT_URL and
//    WEFT_PROJECT pointing at it, which traces a few nested calls,
// 3. print each trace it produced as a tree (the `weft calls --trace` view),
// 4. stop the server.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runCli } from '@weft/cli';
import { DEFAULT_PORT, routes } from '@weft/protocol';
import { startServer } from '@weft/server';

const PROJECT = 'quickstart';
const DB_PATH = './.weft/weft.db';
const QUICKSTART = fileURLToPath(new URL('./quickstart.mjs', import.meta.url));

/** Starts on the default port; if another server holds it, on any free port. */
async function start() {
  try {
    return await startServer({ port: DEFAULT_PORT, dbPath: DB_PATH });
  } catch (error) {
    if (error?.cause?.code !== 'EADDRINUSE') throw error;
    console.log(`Port ${DEFAULT_PORT} is taken (another \`weft serve\`?); using a free port for the demo.`);
    return startServer({ port: 0, dbPath: DB_PATH });
  }
}

/** Root calls of this project that started at or after `since`: the traces this run made. */
async function rootsSince(url, since) {
  const res = await fetch(new URL(routes.callQuery(), url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      project: PROJECT,
      parentId: null,
      startedAfter: since,
      sort: { field: 'startedAt', direction: 'asc' },
    }),
  });
  if (!res.ok) throw new Error(`Querying ${url} failed: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()).calls;
}

/**
 * What to run next, for the port the demo really used: on the default port
 * the plain commands; on another one (7420 was taken by another program),
 * the same port and URL spelled out, so the hint never points at that program.
 */
function closingHint(url) {
  const onDefault = new URL(url).port === String(DEFAULT_PORT);
  const serve = onDefault ? 'npx weft serve' : `npx weft serve --port ${new URL(url).port}`;
  const list = `npx weft calls --project ${PROJECT}${onDefault ? '' : ` --url ${url}`}`;
  return `Next: \`${serve}\` keeps the server up; open ${url} to browse these traces, or list them with \`${list}\`.`;
}

const server = await start();
try {
  console.log(`Weft server running at ${server.url} (data in ${DB_PATH})\n`);
  const since = Date.now();
  const child = spawn(process.execPath, [QUICKSTART], {
    stdio: 'inherit',
    env: { ...process.env, WEFT_URL: server.url, WEFT_PROJECT: PROJECT },
  });
  const [code, signal] = await once(child, 'exit');
  if (code !== 0) throw new Error(`examples/quickstart.mjs exited with ${signal ?? code}`);

  const roots = await rootsSince(server.url, since);
  if (roots.length === 0) throw new Error('The quick start ran but the server holds none of its calls.');
  for (const root of roots) {
    console.log(`\nTrace ${root.traceId}  (weft calls --project ${PROJECT} --trace ${root.traceId})\n`);
    const exitCode = await runCli([
      'calls',
      '--url',
      server.url,
      '--project',
      PROJECT,
      '--trace',
      root.traceId,
    ]);
    if (exitCode !== 0) throw new Error(`weft calls exited with ${exitCode}`);
  }
  console.log(`\n${closingHint(server.url)}`);
} catch (error) {
  console.error(`demo failed: ${error?.message ?? error}`);
  process.exitCode = 1;
} finally {
  await server.close();
}
