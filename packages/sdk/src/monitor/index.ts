// The `@weft/sdk/monitor` entry: online evaluators run in this process.
export {
  type Monitor,
  type MonitorOptions,
  type MonitorScorer,
  type MonitorScorerArgs,
  monitor,
} from './monitor.js';
