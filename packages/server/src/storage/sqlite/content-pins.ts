import type { Database, Statement } from 'better-sqlite3';
import { contentRefsOfJson } from '../content-refs.js';
import { splitRef } from './lifecycle-schema.js';

/**
 * Pins what objects and table rows name (lifecycle-schema.ts): their files,
 * which garbage collection must keep, and the calls dataset rows were made
 * from, which retention must keep. Called in the transaction that stores
 * the object or row.
 */
export class SqliteContentPins {
  readonly #pin: Statement;

  constructor(db: Database) {
    this.#pin = db.prepare('INSERT OR IGNORE INTO content_pins (project, kind, target) VALUES (?, ?, ?)');
  }

  /** Pins the refs in `canonicalValue` (JSON text); values are never named this way. */
  pin(project: string, canonicalValue: string): void {
    for (const key of contentRefsOfJson(canonicalValue) ?? []) {
      if (!key.startsWith('v:')) this.#pin.run(project, ...splitRef(key));
    }
  }
}
