import {
  nodeOutboxFileSystem,
  type OutboxFileHandle,
  type OutboxFileSystem,
} from '../../../src/outbox/outbox-file-system.js';

/** Counts of file handle calls, by operation. */
export interface CallCounts {
  read: number;
  write: number;
  sync: number;
  truncate: number;
}

/**
 * The real file system with counters and a simulated disk that can fill up:
 * writes succeed until `spaceLeftBytes` is used, the write that crosses it is
 * short (like a real full disk), and the next one throws `ENOSPC`.
 */
export class InstrumentedFileSystem implements OutboxFileSystem {
  readonly calls: CallCounts = { read: 0, write: 0, sync: 0, truncate: 0 };
  /** Bytes that may still be written; `Infinity` is a disk with room. */
  spaceLeftBytes = Number.POSITIVE_INFINITY;
  /** Path of every `sync()` call, in order (segment files and the folder itself). */
  readonly syncedPaths: string[] = [];
  /** When set, `truncate()` fails with `EIO` (a rollback that cannot happen). */
  failTruncate = false;

  async open(path: string, flags: 'r' | 'r+' | 'wx'): Promise<OutboxFileHandle> {
    const handle = await nodeOutboxFileSystem.open(path, flags);
    const calls = this.calls;
    return {
      read: (buffer, offset, length, position) => {
        calls.read++;
        return handle.read(buffer, offset, length, position);
      },
      write: async (buffer, offset, length, position) => {
        calls.write++;
        const allowed = Math.min(length, this.spaceLeftBytes);
        if (allowed <= 0) throw systemError('ENOSPC', 'no space left on device, write');
        this.spaceLeftBytes -= allowed;
        return handle.write(buffer, offset, allowed, position);
      },
      truncate: async (length) => {
        calls.truncate++;
        if (this.failTruncate) throw systemError('EIO', 'i/o error, ftruncate');
        return handle.truncate(length);
      },
      sync: () => {
        calls.sync++;
        this.syncedPaths.push(path);
        return handle.sync();
      },
      stat: () => handle.stat(),
      close: () => handle.close(),
    };
  }

  mkdir(path: string, options: { recursive: true }): Promise<unknown> {
    return nodeOutboxFileSystem.mkdir(path, options);
  }

  readdir(path: string): Promise<string[]> {
    return nodeOutboxFileSystem.readdir(path);
  }

  rename(from: string, to: string): Promise<void> {
    return nodeOutboxFileSystem.rename(from, to);
  }

  unlink(path: string): Promise<void> {
    return nodeOutboxFileSystem.unlink(path);
  }

  resetCounts(): void {
    Object.assign(this.calls, { read: 0, write: 0, sync: 0, truncate: 0 });
    this.syncedPaths.length = 0;
  }
}

function systemError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}
