import { randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCK_FILE_NAME } from './lock-file.js';
import { parseSegmentFileName } from './segment-file.js';

/** Prefix of the folder a process writes to when another live process holds the project's folder. */
export const PROCESS_FOLDER_PREFIX = 'proc-';

/** A new folder of this process beside the project's: `<dir>/proc-<pid>-<id>`. */
export function processFolder(dir: string): string {
  return join(dir, `${PROCESS_FOLDER_PREFIX}${process.pid}-${randomUUID().slice(0, 8)}`);
}

/** Removes a per-process folder that holds nothing any more (a damaged segment set aside keeps it). */
export async function removeFolderIfEmpty(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  if (names.every((name) => name === LOCK_FILE_NAME)) await rm(dir, { recursive: true, force: true });
}

/** The folders under `dir` (itself and its `proc-*` children) that hold segment files. No folder is created. */
export async function outboxFoldersIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  if (
    entries.some(
      (e) => e.isFile() && (parseSegmentFileName(e.name) !== undefined || e.name === LOCK_FILE_NAME),
    )
  )
    found.push(dir);
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(PROCESS_FOLDER_PREFIX)) continue;
    const child = join(dir, entry.name);
    const files = await readdir(child).catch(() => []);
    if (files.some((name) => parseSegmentFileName(name) !== undefined)) found.push(child);
  }
  return found;
}
