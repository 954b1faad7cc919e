export {
  type Baseline,
  baselineLevel,
  estimateBaseline,
  type Observation,
  type SeriesKind,
  standardize,
} from './baseline.js';
export {
  type ChangeAlarm,
  type DetectorConfig,
  type DetectorState,
  detectChange,
  freshDetector,
  runStart,
} from './change-detector.js';
export { CUSUM_K, DESIGN_MARGIN, detectorConfig } from './change-settings.js';
export { cusumThreshold, siegmundArl, windowsPerMonth } from './cusum-threshold.js';
export { watchSeries, type WatchOptions } from './simulate.js';
