// Reads and writes through the server's HTTP API, each answer checked
// against the protocol's schema. The commands and `weft mcp` share them.
export { type FetchedCalls, fetchCalls, fetchTrace } from './fetch-calls.js';
export { giveFeedback } from './give-feedback.js';
export { deleteCalls, readProjectSettings, writeProjectSettings } from './lifecycle.js';
export { listProjects, type ProjectSummary } from './list-projects.js';
export { locateCall } from './locate-call.js';
export {
  datasetFromCalls,
  listObjects,
  type ObjectSummary,
  objectLabels,
  readObject,
  setObjectLabel,
} from './objects.js';
export { parseAnswer } from './parse-answer.js';
export { queryMetrics } from './query-metrics.js';
export { querySessions } from './query-sessions.js';
export { readCall } from './read-call.js';
export { projectsOrExplain, resolveProject } from './resolve-project.js';
