// Two evaluation runs compared by id: `weft eval compare` and `weft mcp`'s compare_runs.
export {
  CHANGED_COLUMNS,
  DEFAULT_MAX_CHANGED_ROWS,
  formatComparisonTables,
  SCORE_COLUMNS,
} from './comparison-table.js';
export { type ComparedRuns, compareRunIds } from './compare-run-ids.js';
export { type RunFacts, runFacts } from './run-facts.js';
