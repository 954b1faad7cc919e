/** One server-sent event: its `event` field (empty when none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * The server-sent events of a response body, in order, as they arrive
 * (the framing of the `text/event-stream` format: fields per line, events
 * separated by a blank line; comments and unknown fields skipped). The
 * decoder keeps a partial line or event across chunks.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      // A lone `\r` at the end may be the first half of `\r\n`: wait for the next chunk.
      while (newline >= 0 && (done || newline < buffer.length - 1 || buffer[newline] !== '\r')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event, data: data.join('\n') };
          event = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') data.push(text);
          else if (field === 'event') event = text;
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
      if (done) break;
    }
    if (data.length > 0) yield { event, data: data.join('\n') };
  } finally {
    reader.releaseLock();
  }
}
