import * as fsp from 'node:fs/promises';

/**
 * The file handle operations the outbox uses. Node's `FileHandle` satisfies it
 * as is. Every read and write names its position explicitly, so the outbox
 * never depends on a file cursor (and a rolled-back write cannot move it).
 */
export interface OutboxFileHandle {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  write(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesWritten: number }>;
  truncate(length: number): Promise<void>;
  sync(): Promise<void>;
  stat(): Promise<{ size: number; mtimeMs: number }>;
  close(): Promise<void>;
}

/**
 * The file system operations the outbox uses; all of its I/O goes through one
 * of these. The default is `node:fs/promises`. Tests (and unusual platforms)
 * inject their own to count reads or simulate a full disk.
 */
export interface OutboxFileSystem {
  /** `flags` is one of `'r'`, `'r+'` or `'wx'` (create, fail if it exists). */
  open(path: string, flags: 'r' | 'r+' | 'wx'): Promise<OutboxFileHandle>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  unlink(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/** The real file system. */
export const nodeOutboxFileSystem: OutboxFileSystem = {
  open: (path, flags) => fsp.open(path, flags),
  mkdir: (path, options) => fsp.mkdir(path, options),
  readdir: (path) => fsp.readdir(path),
  unlink: (path) => fsp.unlink(path),
  rename: (from, to) => fsp.rename(from, to),
};
