import { replayOutbox } from '@weft/sdk/outbox';
import type { CliIo } from '../../io/index.js';
import { ExitCode } from '../../exit/index.js';
import { formatPlainTable } from '../../render/index.js';
import type { OutboxReplayOptions } from './outbox-options.js';
import { OutboxReplayStoppedError } from './outbox-replay-stopped-error.js';

/**
 * `weft outbox replay`: sends every outbox folder's records (or one
 * project's) to the server, oldest first; a segment is deleted once the
 * server took all of it. Prints sent/remaining per folder, then fails with
 * exit 1 (unreachable, server error) or 3 (token refused) when records remain.
 */
export async function outboxReplayCommandRun(options: OutboxReplayOptions, io: CliIo): Promise<number> {
  const result = await replayOutbox({
    dir: options.dir,
    url: options.url,
    apiKey: options.token,
    project: options.project,
    onWarning: (message) => io.stderr.write(`weft: warning: ${message.replace(/\s*\n\s*/g, ' ')}\n`),
  });
  if (options.json) {
    // The same result either way; the exit code still says whether records remain.
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (result.stopped)
      throw new OutboxReplayStoppedError(result.stopped, options.url, result.remaining, options.dir);
    return ExitCode.ok;
  }
  if (result.folders.length === 0) {
    const where =
      options.project === undefined ? options.dir : `${options.dir} for project ${options.project}`;
    io.stdout.write(`No outbox under ${where}: nothing to replay.\n`);
    return ExitCode.ok;
  }
  const rows = result.folders.map((folder) => [
    folder.project,
    String(folder.sent),
    String(folder.remaining),
  ]);
  io.stdout.write(`${formatPlainTable(['project', 'sent', 'remaining'], rows, { rule: false })}\n`);
  io.stdout.write(`Sent ${result.sent} record(s) to ${options.url}; ${result.remaining} remaining.\n`);
  if (result.stopped)
    throw new OutboxReplayStoppedError(result.stopped, options.url, result.remaining, options.dir);
  return ExitCode.ok;
}
