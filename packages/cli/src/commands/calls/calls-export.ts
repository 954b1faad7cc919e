import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { routes } from '@weft/protocol';
import { ExitCode } from '../../exit/index.js';
import { download } from '../../http/index.js';
import type { CliIo } from '../../io/index.js';
import { resolveProject } from '../../server-api/index.js';
import type { CallsExportOptions } from './calls-export-options.js';

/**
 * `weft calls export`: streams `GET /v1/calls/export` into a file or
 * standard output as it arrives, so an export of any size holds one chunk
 * at a time.
 */
export async function callsExport(options: CallsExportOptions, io: CliIo): Promise<number> {
  const target = { url: options.url, token: options.token };
  const project = await resolveProject(target, options.project);
  const params = new URLSearchParams({
    project,
    format: options.format,
    values: options.values,
    query: JSON.stringify(options.filters),
  });
  const sink = options.out === undefined ? textSink(io) : createWriteStream(options.out);
  await download(target, `${routes.callExport()}?${params}`, sink);
  if (options.out !== undefined) io.stderr.write(`Exported the calls of ${project} to ${options.out}.\n`);
  return ExitCode.ok;
}

/** Standard output as a byte stream (JSON Lines are UTF-8 text). */
function textSink(io: CliIo): Writable {
  const decoder = new TextDecoder();
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      io.stdout.write(decoder.decode(chunk, { stream: true }));
      done();
    },
    final(done) {
      io.stdout.write(decoder.decode());
      done();
    },
  });
}
