import { EventEmitter } from 'node:events';
import {
  nodeOutboxFileSystem,
  type OutboxFileHandle,
  type OutboxFileSystem,
} from '../../src/outbox/outbox-file-system.js';

/**
 * A real file system whose writes fail with ENOSPC while `full` is set, as a
 * full disk does: nothing of the failed write reaches the file. Counts the
 * refused writes and fires `'refused'` on each, so a test can wait for the
 * fault to have been hit.
 */
export class DiskFullFileSystem extends EventEmitter implements OutboxFileSystem {
  full = false;
  refusedWrites = 0;

  open = async (path: string, flags: 'r' | 'r+' | 'wx'): Promise<OutboxFileHandle> => {
    const handle = await nodeOutboxFileSystem.open(path, flags);
    return {
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
      write: (buffer, offset, length, position) => {
        if (this.full) {
          this.refusedWrites += 1;
          this.emit('refused');
          const error = Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), {
            code: 'ENOSPC',
            errno: -28,
            syscall: 'write',
          });
          return Promise.reject(error);
        }
        return handle.write(buffer, offset, length, position);
      },
      truncate: (length) => handle.truncate(length),
      sync: () => handle.sync(),
      stat: () => handle.stat(),
      close: () => handle.close(),
    };
  };
  mkdir = nodeOutboxFileSystem.mkdir;
  readdir = nodeOutboxFileSystem.readdir;
  unlink = nodeOutboxFileSystem.unlink;
  rename = nodeOutboxFileSystem.rename;

  /** Resolves once at least `count` writes were refused. */
  whenRefused(count: number): Promise<void> {
    if (this.refusedWrites >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.refusedWrites < count) return;
        this.off('refused', check);
        resolve();
      };
      this.on('refused', check);
    });
  }
}
