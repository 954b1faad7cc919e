import { cusumThreshold, windowsPerMonth } from './cusum-threshold.js';
import type { DetectorConfig } from './change-detector.js';

/** The reference value: the detector is fastest for shifts of 2k = 1 baseline standard deviation. */
export const CUSUM_K = 0.5;

/**
 * The threshold is set for a third of the stated false-alarm rate: the baseline's
 * mean and spread are estimates (from `baselineWindows` windows), and small
 * counts are skewed, both of which raise the real rate above the one the
 * formula gives for exactly known, normal values. Measured on simulated
 * stationary series (change-detector.slow.test.ts, docs/monitoring.md):
 * see the table there (all under the stated rate).
 */
export const DESIGN_MARGIN = 3;

/** The detector for a stated false-alarm rate per 30 days, a window width and a direction. */
export function detectorConfig(options: {
  falseAlarmsPerMonth: number;
  windowMs: number;
  direction: 'up' | 'down' | 'both';
}): DetectorConfig {
  const h = cusumThreshold({
    falseAlarmsPerMonth: options.falseAlarmsPerMonth / DESIGN_MARGIN,
    windowsPerMonth: windowsPerMonth(options.windowMs),
    sides: options.direction === 'both' ? 2 : 1,
    k: CUSUM_K,
  });
  return { k: CUSUM_K, h, direction: options.direction };
}
