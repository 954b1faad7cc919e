import type { DeletionCounts } from '@weft/protocol';

/** A page of traces found by {@link LifecycleStorage.expiredTraces}. */
export interface ExpiredTraces {
  /** Traces every call of which started before the cutoff, each once per page. */
  traceIds: string[];
  /** Where the next page starts (`undefined`: the pass reached the cutoff). */
  cursor: string | undefined;
}

/** What one step of garbage collection removed, and where the next step starts. */
export interface GarbageCollected {
  values: number;
  files: number;
  /** `undefined`: the step reached the end of the project's values and files. */
  cursor: string | undefined;
}

/**
 * What retention and deletion on request need of an engine (issue 28),
 * always by whole traces: a trace is kept or removed whole, so no call is
 * left without its parent, and no child keeps the content a deletion meant
 * to remove.
 *
 * **What a call refers to.** Deduplicated values (by their markers in a
 * call's inputs, output and attributes, and in other values: nested markers
 * and an array's `prev`) and files (by `weft:///<project>/file/<digest>`
 * refs in calls, values, objects and table rows). An engine records these
 * references as it stores each call and value (and the files objects and
 * table rows name, and the calls a dataset row was made from), so that
 * deleting a call knows which values and files only it kept.
 *
 * **What deletion leaves.** After `deleteTraces` resolves, no read returns
 * anything of the deleted calls: not `readCall`, not `queryCalls` (nor its
 * text matches and snippets), not `querySessions`, not the rollups (the
 * engine calls `monitoring.forgetCalls` with the ids), not `listFeedback`;
 * their values and files that no remaining call, value, object or table
 * refers to are gone too (`readValues`, `readFile`). A value or file stored
 * again afterwards is stored anew.
 *
 * **Concurrent ingest.** A call ingested while its value is being collected
 * either lands before the collection (the value is referenced, so kept) or
 * after it (the value is gone, and the batch's answer lists it in
 * `missingValues`, so the client sends it again): no call is left
 * referring to a value the server says it has but does not.
 */
export interface LifecycleStorage {
  /**
   * Scans calls started before `beforeMs` in start order (then id), from
   * after `cursor` (`undefined`: from the project's oldest), at most `limit`
   * calls, and answers the traces among them ALL of whose calls started
   * before `beforeMs`. A trace with a newer call is left out; its newest
   * call, scanned in a later pass, brings it back.
   */
  expiredTraces(
    project: string,
    beforeMs: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<ExpiredTraces>;
  /**
   * Of `traceIds`, those retention must keep whatever their age: a call of
   * the trace has feedback, or is the source of a row of a stored table (a
   * dataset made from calls), or runs an evaluation (op
   * `Evaluation.evaluate` or `Evaluation.predict_and_score`).
   */
  keptTraces(project: string, traceIds: readonly string[]): Promise<string[]>;
  /**
   * What {@link deleteTraces} would remove now, without removing anything:
   * the traces that exist, their calls, and the values and files that no
   * call outside `traceIds` (nor a value, object or table) would refer to.
   */
  measureTraces(project: string, traceIds: readonly string[]): Promise<DeletionCounts>;
  /**
   * Deletes every call of `traceIds` with everything derived from it (see
   * "What deletion leaves"), and the values and files only they referred to.
   * With `secure`, the engine also overwrites the freed bytes where it can
   * (SQLite's `secure_delete`): deletion on request asks for it, retention
   * does not. Returns what was removed.
   */
  deleteTraces(
    project: string,
    traceIds: readonly string[],
    options: { secure: boolean },
  ): Promise<DeletionCounts>;
  /**
   * Deletes values and files of `project` stored before `storedBefore` that
   * nothing refers to (put but never referenced by a call that arrived, or
   * left by an engine's interrupted deletion), examining at most `limit`
   * from after `cursor`. The age bound leaves a value just put for the
   * call that will refer to it.
   */
  collectGarbage(
    project: string,
    storedBefore: number,
    cursor: string | undefined,
    limit: number,
  ): Promise<GarbageCollected>;
}
