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
 * Mode of every file the outbox creates: owner read/write only. Records hold
 * the inputs and outputs of traced calls (prompts, answers, whatever a
 * redaction pattern missed); other users of the machine have no business
 * reading them.
 */
export const OUTBOX_FILE_MODE = 0o600;

/** Mode of every folder the outbox creates: owner only (issue 26 item 8). */
export const OUTBOX_DIR_MODE = 0o700;

/**
 * The file system operations the outbox uses; all of its I/O goes through one
 * of these. The default is `node:fs/promises`. Tests (and unusual platforms)
 * inject their own to count reads or simulate a full disk.
 */
export interface OutboxFileSystem {
  /**
   * `flags` is one of `'r'`, `'r+'` or `'wx'` (create, fail if it exists).
   * A file created with `'wx'` must be owner-only ({@link OUTBOX_FILE_MODE}).
   */
  open(path: string, flags: 'r' | 'r+' | 'wx'): Promise<OutboxFileHandle>;
  /** Folders it creates (parents included) must be owner-only ({@link OUTBOX_DIR_MODE}). */
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  unlink(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/**
 * The real file system. Modes apply only to what it creates: a folder that
 * exists already (one the user made, or an older version) keeps its mode.
 */
export const nodeOutboxFileSystem: OutboxFileSystem = {
  open: (path, flags) => fsp.open(path, flags, OUTBOX_FILE_MODE),
  mkdir: (path, options) => fsp.mkdir(path, { ...options, mode: OUTBOX_DIR_MODE }),
  readdir: (path) => fsp.readdir(path),
  unlink: (path) => fsp.unlink(path),
  rename: (from, to) => fsp.rename(from, to),
};
