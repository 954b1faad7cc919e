export { type AlignedStep, alignTraces, type DiffCall, type TraceAlignment } from './align-traces.js';
export {
  byStart,
  findStep,
  normalizeStepPath,
  plainOpName,
  type TraceNode,
  type TraceTree,
  type TreeCall,
  traceTree,
} from './trace-tree.js';
export { type ValueDifference, valueDifferences } from './value-differences.js';
export {
  callsOfTraceColumns,
  type TraceColumns,
  type TraceColumnsCall,
  TraceColumnsError,
  traceColumnsOf,
} from './trace-columns.js';
