import type { OutboxFileHandle } from './outbox-file-system.js';

/** Writes all of `buffer` at `position`, looping over short writes. */
export async function writeFully(
  handle: OutboxFileHandle,
  buffer: Uint8Array,
  position: number,
): Promise<void> {
  let done = 0;
  while (done < buffer.byteLength) {
    const { bytesWritten } = await handle.write(buffer, done, buffer.byteLength - done, position + done);
    if (bytesWritten <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    done += bytesWritten;
  }
}
