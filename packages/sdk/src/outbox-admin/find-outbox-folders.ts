import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { LOCK_FILE_NAME, PROCESS_FOLDER_PREFIX, parseSegmentFileName } from '../outbox/index.js';

/** One outbox folder: the SDK keeps one per project, named after it. */
export interface OutboxFolder {
  /** The folder's name, which is the project when the SDK chose it (`./.weft/outbox/<project>`). */
  project: string;
  /** Absolute path of the folder. */
  dir: string;
}

const isOutboxFile = (name: string) => name === LOCK_FILE_NAME || parseSegmentFileName(name) !== undefined;

/**
 * The outbox folders under `dir`, sorted by name: `dir` itself when it holds
 * segment or lock files (one project's outbox, e.g. a custom `outboxDir`),
 * else each of its sub-folders (the SDK's default layout,
 * `./.weft/outbox/<project>`). A missing `dir` has none. With `project`, only
 * the folder of that name.
 */
export async function findOutboxFolders(dir: string, project?: string): Promise<OutboxFolder[]> {
  const root = resolve(dir);
  const entries = await listOrEmpty(root);
  if (entries.some((entry) => entry.isFile() && isOutboxFile(entry.name))) {
    const name = basename(root);
    if (project !== undefined && project !== name) return [];
    // With the per-process folders a second process of the project wrote beside it.
    return [{ project: name, dir: root }, ...processFolders(root, name, entries)];
  }
  // Every sub-folder counts, empty ones too: a replayed outbox keeps its folder, and status shows it at 0.
  const folders: OutboxFolder[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || (project !== undefined && entry.name !== project)) continue;
    const dir = join(root, entry.name);
    folders.push({ project: entry.name, dir }, ...processFolders(dir, entry.name, await listOrEmpty(dir)));
  }
  return folders.sort((a, b) =>
    a.project < b.project ? -1 : a.project > b.project ? 1 : a.dir < b.dir ? -1 : 1,
  );
}

/** The `proc-*` folders of one project's outbox folder (see `OutboxKeeper`), as folders of that project. */
function processFolders(dir: string, project: string, entries: readonly Dirent[]): OutboxFolder[] {
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(PROCESS_FOLDER_PREFIX))
    .map((entry) => ({ project, dir: join(dir, entry.name) }));
}

async function listOrEmpty(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    // A folder that is not there (or vanished meanwhile) holds no outbox.
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    ) {
      return [];
    }
    throw error;
  }
}
