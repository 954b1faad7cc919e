import { outboxStatus } from '@weft/sdk/outbox';
import type { CliIo } from '../../io/index.js';
import { ExitCode } from '../../exit/index.js';
import type { OutboxStatusOptions } from './outbox-options.js';
import { formatOutboxStatusTable } from './outbox-status-table.js';

/**
 * `weft outbox status`: per outbox folder, what waits to be sent. Reads the
 * folders without opening them, so it is safe while the application runs.
 */
export async function outboxStatusCommandRun(options: OutboxStatusOptions, io: CliIo): Promise<number> {
  const folders = await outboxStatus({ dir: options.dir, project: options.project });
  if (options.json) {
    // null rather than a missing key, so every entry has the same shape.
    const entries = folders.map((folder) => ({
      ...folder,
      oldestSegmentAtMs: folder.oldestSegmentAtMs ?? null,
      newestSegmentAtMs: folder.newestSegmentAtMs ?? null,
    }));
    io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return ExitCode.ok;
  }
  const where = options.project === undefined ? options.dir : `${options.dir} for project ${options.project}`;
  if (folders.length === 0) {
    io.stdout.write(`No outbox under ${where}: nothing is waiting to be sent.\n`);
    return ExitCode.ok;
  }
  io.stdout.write(`${formatOutboxStatusTable(folders)}\n`);
  const records = folders.reduce((sum, folder) => sum + folder.records, 0);
  const unreadable = folders.reduce((sum, folder) => sum + folder.unreadableSegments, 0);
  io.stdout.write(
    `${records} record(s) waiting in ${folders.length} outbox folder(s) under ${options.dir}` +
      `${records > 0 ? '; send them with `weft outbox replay`' : ''}.\n`,
  );
  if (unreadable > 0) {
    io.stderr.write(
      `weft: warning: ${unreadable} segment file(s) are not readable by this version of Weft (foreign header or newer format); they are left untouched.\n`,
    );
  }
  return ExitCode.ok;
}
