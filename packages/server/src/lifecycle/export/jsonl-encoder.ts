import type { Call } from '@weft/protocol';

/** The calls as JSON Lines: one call per line, as the read API answers it; one chunk per page. */
export async function* jsonlChunks(pages: AsyncIterable<Call[]>): AsyncGenerator<Uint8Array> {
  for await (const calls of pages) {
    let text = '';
    for (const call of calls) text += `${JSON.stringify(call)}\n`;
    yield Buffer.from(text, 'utf8');
  }
}
