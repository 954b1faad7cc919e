/**
 * One `AbortSignal` per row, so a model that hands its signal to an HTTP
 * client (as docs/evaluations.md advises) adds its listeners to a signal
 * that lives as long as its row, not to one shared by every row of the run:
 * the `openai` client adds one per request, and on a shared signal a run of
 * more than 10 rows printed `MaxListenersExceededWarning` and held every
 * request's listener to the end. The run's signal gets one listener, the
 * runner's, which aborts the rows in flight with its reason.
 */
export class RowSignals {
  readonly #run: AbortSignal;
  readonly #open = new Set<AbortController>();

  constructor(run: AbortSignal) {
    this.#run = run;
  }

  /** A new row's signal (already aborted when the run is); `release` it when the row ends. */
  open(): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    if (this.#run.aborted) controller.abort(this.#run.reason);
    else this.#open.add(controller);
    return { signal: controller.signal, release: () => this.#open.delete(controller) };
  }

  /** The run was aborted: every row in flight is, with the run's reason. */
  abortAll(): void {
    for (const controller of this.#open) controller.abort(this.#run.reason);
    this.#open.clear();
  }
}
