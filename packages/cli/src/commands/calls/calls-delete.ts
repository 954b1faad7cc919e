import type { CallDeleteResponse } from '@weft/protocol';
import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { formatCount } from '../../render/index.js';
import { deleteCalls } from '../../server-api/index.js';
import type { CallsDeleteOptions } from './calls-delete-options.js';

/**
 * `weft calls delete`: deletes the traces the filters select, whole (or with
 * `--dry-run` counts them); the server records the deletion in its log.
 */
export async function callsDelete(options: CallsDeleteOptions, io: CliIo): Promise<number> {
  const counts = await deleteCalls(
    { url: options.url, token: options.token },
    { project: options.project, ...options.query, dryRun: options.dryRun },
  );
  io.stdout.write(options.json ? `${JSON.stringify(counts)}\n` : `${describe(options.project, counts)}\n`);
  return ExitCode.ok;
}

function describe(project: string, counts: CallDeleteResponse): string {
  const what = `${formatCount(counts.traces)} traces (${formatCount(counts.calls)} calls, ${formatCount(counts.values)} values, ${formatCount(counts.files)} files)`;
  return counts.dryRun
    ? `Would delete ${what} from ${project}. Run again without --dry-run to delete them.`
    : `Deleted ${what} from ${project}.`;
}
