import type { DeletionAuditEntry } from '@weft/protocol';
import type { Storage } from '../storage/index.js';

/** Where deletions are recorded among the monitoring logs (`MonitorStateStorage`). */
const KIND = 'lifecycle.audit';
const KEY = 'deletions';

/**
 * The record of deletions (on request, and retention's passes): who, when,
 * what query, what counts — never anything of the deleted calls.
 */
export class DeletionAudit {
  readonly #storage: Storage;

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  async record(entry: DeletionAuditEntry): Promise<void> {
    await this.#storage.monitoring.appendLog(entry.project, KIND, KEY, [{ at: entry.at, value: entry }]);
  }

  /** The project's entries, newest first. */
  async read(project: string, limit: number): Promise<DeletionAuditEntry[]> {
    const entries = await this.#storage.monitoring.readLog<DeletionAuditEntry>(project, KIND, KEY, { limit });
    return entries.map((entry) => entry.value);
  }
}
