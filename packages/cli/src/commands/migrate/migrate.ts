import { migrateStorage, openStorage, parseStorageUrl, redactStorageUrl, type Storage } from '@weft/server';
import { existsSync } from 'node:fs';
import { UsageError } from '../../errors/index.js';
import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import type { MigrateOptions } from './migrate-options.js';

/** What a run reports per project, in this order. */
const COUNTED = [
  'calls',
  'feedback',
  'values',
  'files',
  'objects',
  'tables',
  'tableRows',
  'labels',
  'documents',
];

/**
 * `weft migrate FROM TO`: copies every project of one storage into another
 * through the storage contract (see `migrateStorage`), printing a line per
 * page of calls and a total per project. Stop it at any moment: the next
 * run with the same FROM resumes after the last page it stored.
 */
export async function migrate(options: MigrateOptions, io: CliIo): Promise<number> {
  const credentials = options.storageCredentials ?? {};
  const from = parseStorageUrl(options.from, credentials);
  // Opening a SQLite path creates the file: a mistyped path would copy nothing and say so quietly.
  if (from.kind === 'sqlite' && !existsSync(from.path))
    throw new UsageError(`No SQLite database at ${from.path} (the <from> storage); check the path.`);
  const source = await openStorage(from);
  let target: Storage | undefined;
  try {
    target = await openStorage(parseStorageUrl(options.to, credentials));
    const sourceName = redactStorageUrl(options.from);
    io.stderr.write(`Copying ${sourceName} into ${redactStorageUrl(options.to)}\n`);
    const totals = await migrateStorage({
      source,
      target,
      sourceName,
      onProgress: ({ project, phase, copied }) => {
        if (phase === 'calls') io.stderr.write(`  ${project}: ${copied.calls ?? 0} calls copied\n`);
      },
    });
    for (const [project, copied] of Object.entries(totals)) {
      const parts = COUNTED.filter((what) => (copied[what] ?? 0) > 0).map(
        (what) => `${copied[what]} ${what}`,
      );
      io.stdout.write(`${project}: ${parts.length === 0 ? 'nothing to copy' : parts.join(', ')}\n`);
    }
    io.stdout.write(`Done: ${Object.keys(totals).length} project(s).\n`);
    return ExitCode.ok;
  } finally {
    await Promise.all([source.close(), target?.close()]);
  }
}
