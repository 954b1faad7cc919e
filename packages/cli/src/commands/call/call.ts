import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { locateCall } from '../../server-api/index.js';
import type { CallOptions } from './call-options.js';
import { formatCallView } from './call-view.js';

/** `weft call <id>`: one call, readable; JSON is the API's call (every stored field). */
export async function call(options: CallOptions, io: CliIo): Promise<number> {
  const found = await locateCall({ url: options.url, token: options.token }, options.id, options.project);
  io.stdout.write(options.json ? `${JSON.stringify(found, null, 2)}\n` : `${formatCallView(found)}\n`);
  return ExitCode.ok;
}
