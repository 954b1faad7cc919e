import { compareRuns, loadRun, type RunComparison } from '@weft/sdk/eval';
import type { ServerTarget } from '../http/index.js';
import { locateCall } from '../server-api/index.js';
import { type RunFacts, runFacts } from './run-facts.js';

/** Two runs compared: what each was, and the paired comparison of B against A. */
export interface ComparedRuns {
  a: RunFacts & { project: string; skippedRows: number };
  b: RunFacts & { project: string; skippedRows: number };
  comparison: RunComparison;
}

/**
 * Reads two evaluation runs by id and compares them (the SDK's `loadRun`
 * and `compareRuns`). Run ids are unique across projects: with no
 * `project`, each run is found in whichever project holds it.
 *
 * @throws {RunNotFoundError} / {CallNotFoundError} (exit 4) for an id that is not a run.
 */
export async function compareRunIds(
  target: ServerTarget,
  {
    runA,
    runB,
    project,
    lowerIsBetter = [],
  }: { runA: string; runB: string; project?: string | undefined; lowerIsBetter?: string[] },
): Promise<ComparedRuns> {
  const load = async (runId: string) => {
    // With a project, loadRun itself says when the id is not a run there.
    const where = project ?? (await locateCall(target, runId, undefined)).project;
    return loadRun(
      { url: target.url, project: where, ...(target.token ? { apiKey: target.token } : {}) },
      runId,
    );
  };
  const [a, b] = await Promise.all([load(runA), load(runB)]);
  const facts = (run: typeof a) => ({
    ...runFacts(run.run, run.summary),
    project: run.run.project,
    skippedRows: run.skipped.length,
  });
  return {
    a: facts(a),
    b: facts(b),
    comparison: compareRuns(a.results, b.results, { lowerIsBetter }),
  };
}
