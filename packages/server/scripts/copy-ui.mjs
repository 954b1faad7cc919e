#!/usr/bin/env node
// Copies the built web UI (packages/ui/dist) into dist/ui, where the server
// serves it from by default. Without a built UI it does nothing: the server
// then answers `/` with a short note instead.
import { cp, rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../../ui/dist/', import.meta.url));
const to = fileURLToPath(new URL('../dist/ui/', import.meta.url));

const built = await stat(new URL('index.html', `file://${from}`)).then(
  (s) => s.isFile(),
  () => false,
);
await rm(to, { recursive: true, force: true });
if (built) {
  await cp(from, to, { recursive: true });
  process.stdout.write(`copied the web UI from ${from} to ${to}\n`);
} else {
  process.stdout.write(`no built web UI at ${from}; the server will serve a note at /\n`);
}
