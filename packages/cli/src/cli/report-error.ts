import { debuglog } from 'node:util';
import { WeftError } from '@weft/protocol';
import type { CliIo } from '../io/index.js';

const debug = debuglog('weft');

/**
 * Writes the error that ended a command as one line on stderr. Weft errors
 * carry messages written for the user; anything else is a bug or an
 * environment failure, so its stack goes to `NODE_DEBUG=weft`.
 */
export function reportError(error: unknown, io: CliIo): void {
  const message = WeftError.isInstance(error)
    ? error.message
    : `unexpected ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)} (NODE_DEBUG=weft shows the stack)`;
  io.stderr.write(`weft: error: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  if (error instanceof Error) debug('%s', error.stack);
}
