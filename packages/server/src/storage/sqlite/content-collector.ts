import type { Database, Statement } from 'better-sqlite3';
import { type ContentRefKey, valueRefsOf } from '../content-refs.js';
import { splitRef } from './lifecycle-schema.js';

/**
 * Per connection: the traces a dry run leaves out of "what still refers"
 * (`lifecycle_selection`) and the values it has counted as gone
 * (`lifecycle_gone`). A real deletion leaves both empty, since what it
 * deletes is really gone.
 */
export const COLLECTOR_SETUP = `
  CREATE TEMP TABLE IF NOT EXISTS lifecycle_selection (trace_id TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TEMP TABLE IF NOT EXISTS lifecycle_gone (digest TEXT PRIMARY KEY) WITHOUT ROWID;
`;

/** `collect`: delete what nothing refers to; `measure`: only count it (a dry run). */
export type CollectMode = 'collect' | 'measure';

/**
 * Values and files that nothing refers to any more, found from candidates
 * (what deleted calls or values referred to) and removed or counted:
 *
 *   queue ← candidates
 *   while queue: take (kind, target)
 *     still referred to by a call (outside the selection), a value (not gone), or a pin? keep
 *     a value: remove it (or mark it gone), queue what it referred to
 *     a file: remove it (or count it)
 *
 * A value referred to by two candidates is checked again each time one of
 * them goes, so it goes with the last. Calls are matched to their refs by
 * rowid joined back to `calls`, so a ref row left by a half re-sent with
 * other values (lifecycle-schema.ts) never keeps content of a deleted call.
 */
export class ContentCollector {
  readonly #callRefers: Statement;
  readonly #valueRefers: Statement;
  readonly #pinned: Statement;
  readonly #readValue: Statement;
  readonly #deleteValue: Statement;
  readonly #deleteValueRef: Statement;
  readonly #deleteFile: Statement;
  readonly #hasFile: Statement;
  readonly #markGone: Statement;

  constructor(db: Database) {
    db.exec(COLLECTOR_SETUP);
    this.#callRefers = db
      .prepare(`SELECT 1 FROM call_refs r JOIN calls c ON c.rowid = r.call_row
        WHERE r.project = @project AND r.kind = @kind AND r.target = @target AND c.project = @project
          AND (c.trace_id IS NULL OR c.trace_id NOT IN (SELECT trace_id FROM temp.lifecycle_selection))
        LIMIT 1`)
      .pluck();
    this.#valueRefers = db
      .prepare(`SELECT 1 FROM value_refs WHERE project = @project AND kind = @kind AND target = @target
        AND from_digest NOT IN (SELECT digest FROM temp.lifecycle_gone) LIMIT 1`)
      .pluck();
    this.#pinned = db
      .prepare('SELECT 1 FROM content_pins WHERE project = @project AND kind = @kind AND target = @target')
      .pluck();
    this.#readValue = db.prepare('SELECT prev, bytes FROM call_values WHERE project = ? AND digest = ?');
    this.#deleteValue = db.prepare('DELETE FROM call_values WHERE project = ? AND digest = ?');
    this.#deleteValueRef = db.prepare(
      'DELETE FROM value_refs WHERE project = ? AND kind = ? AND target = ? AND from_digest = ?',
    );
    this.#deleteFile = db.prepare('DELETE FROM files WHERE project = ? AND digest = ?');
    this.#hasFile = db.prepare('SELECT 1 FROM files WHERE project = ? AND digest = ?').pluck();
    this.#markGone = db.prepare('INSERT OR IGNORE INTO temp.lifecycle_gone (digest) VALUES (?)');
  }

  /** True when a call, a value or a pin still refers to `key` (see the class comment). */
  referenced(project: string, key: ContentRefKey): boolean {
    const [kind, target] = splitRef(key);
    const params = { project, kind, target };
    return (
      this.#callRefers.get(params) !== undefined ||
      this.#valueRefers.get(params) !== undefined ||
      this.#pinned.get(params) !== undefined
    );
  }

  /**
   * Removes (or, measuring, counts) the candidates nothing refers to, and
   * what only they referred to. Run it in the caller's transaction.
   */
  run(
    project: string,
    candidates: Iterable<ContentRefKey>,
    mode: CollectMode,
  ): { values: number; files: number } {
    const queue = [...candidates];
    const seenFiles = new Set<string>();
    let values = 0;
    let files = 0;
    while (queue.length > 0) {
      const key = queue.pop() as ContentRefKey;
      if (key.startsWith('c:') || this.referenced(project, key)) continue;
      const [kind, target] = splitRef(key);
      if (kind === 'f') {
        if (seenFiles.has(target)) continue;
        seenFiles.add(target);
        if (mode === 'collect') files += this.#deleteFile.run(project, target).changes;
        else if (this.#hasFile.get(project, target) !== undefined) files++;
        continue;
      }
      const stored = this.#readValue.get(project, target) as
        | { prev: string | null; bytes: Uint8Array }
        | undefined;
      if (stored === undefined) continue;
      const refs = valueRefsOf(stored.prev ?? undefined, stored.bytes);
      if (mode === 'collect') {
        this.#deleteValue.run(project, target);
        for (const ref of refs) this.#deleteValueRef.run(project, ...splitRef(ref), target);
      } else {
        // Measuring, a value counted once stays counted: it is gone from here on.
        if (this.#markGone.run(target).changes === 0) continue;
      }
      values++;
      queue.push(...refs);
    }
    return { values, files };
  }
}
