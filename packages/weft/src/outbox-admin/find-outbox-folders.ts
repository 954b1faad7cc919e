import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { LOCK_FILE_NAME } from '../outbox/lock-file.js';
import { parseSegmentFileName } from '../outbox/segment-file.js';

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
    const folder = { project: basename(root), dir: root };
    return project === undefined || project === folder.project ? [folder] : [];
  }
  // Every sub-folder counts, empty ones too: a replayed outbox keeps its folder, and status shows it at 0.
  const folders = entries
    .filter((entry) => entry.isDirectory() && (project === undefined || entry.name === project))
    .map((entry) => ({ project: entry.name, dir: join(root, entry.name) }));
  return folders.sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0));
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
