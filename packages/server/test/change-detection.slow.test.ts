import { describe, expect, it } from 'vitest';
import { binomial, normal, poisson, seededRandom } from './support/random.js';
import type { Observation, SeriesKind } from '../src/alerts/change-detection/index.js';
import { detectorConfig, watchSeries } from '../src/alerts/change-detection/index.js';

const WINDOW_MS = 300_000;
const MONTH = 8_640;
const STATED_PER_MONTH = 1;

/** Stationary series of each kind, as production metrics look when nothing changes. */
const SERIES: Record<SeriesKind, (random: () => number, at: number) => Observation> = {
  level: (random, at) => ({ at, value: 0.8 + 0.05 * normal(random) }),
  count: (random, at) => ({ at, value: poisson(random, 20) }),
  rate: (random, at) => {
    const trials = poisson(random, 100);
    const events = binomial(random, trials, 0.03);
    return { at, value: trials === 0 ? null : events / trials, events, trials };
  },
  positive: (random, at) => ({ at, value: Math.exp(Math.log(800) + 0.2 * normal(random)) }),
};

const watch = (kind: SeriesKind, direction: 'up' | 'down' | 'both' = 'both') => ({
  kind,
  config: detectorConfig({ falseAlarmsPerMonth: STATED_PER_MONTH, windowMs: WINDOW_MS, direction }),
  baselineWindows: 1_000,
  minBaselineWindows: 100,
  refreshWindows: 12,
});

describe('change detection (CUSUM on a baseline)', () => {
  it.each(Object.keys(SERIES) as SeriesKind[])(
    'raises at most the stated false alarms a month on a stationary %s series',
    (kind) => {
      let alarms = 0;
      let months = 0;
      for (let seed = 1; seed <= 4; seed++) {
        const random = seededRandom(seed * 7_919);
        const series = Array.from({ length: 3 * MONTH }, (_, i) => SERIES[kind](random, i * WINDOW_MS));
        alarms += watchSeries(series, watch(kind)).length;
        months += 3;
      }
      console.info(
        `${kind}: ${alarms} false alarms in ${months} months (${(alarms / months).toFixed(2)}/month, stated ${STATED_PER_MONTH})`,
      );
      expect(alarms / months).toBeLessThanOrEqual(STATED_PER_MONTH);
    },
    120_000,
  );

  it('finds a step change, faster the larger it is, and says when it began and how large it is', () => {
    const delays: Record<string, number> = {};
    for (const shift of [1, 2, 3]) {
      const found: number[] = [];
      for (let seed = 1; seed <= 20; seed++) {
        const random = seededRandom(seed);
        const stepAt = 1_200;
        const series = Array.from({ length: stepAt + 600 }, (_, i) => ({
          at: i * WINDOW_MS,
          value: 10 + normal(random) + (i >= stepAt ? shift : 0),
        }));
        const alarm = watchSeries(series, watch('level')).find((a) => a.at >= stepAt * WINDOW_MS);
        expect(alarm, `shift ${shift}σ, seed ${seed}`).toBeDefined();
        if (alarm === undefined) continue;
        found.push((alarm.at - stepAt * WINDOW_MS) / WINDOW_MS + 1);
        if (shift >= 2) {
          expect(alarm.direction).toBe('up');
          // The change point estimate is close to the step, and the new level is about the shifted one.
          expect(Math.abs(alarm.since / WINDOW_MS - stepAt)).toBeLessThanOrEqual(10);
          expect(alarm.baseline).toBeCloseTo(10, 0);
          // The run may begin a few windows before the step: its mean leans toward the baseline.
          expect(alarm.level).toBeGreaterThan(10 + shift / 3);
          expect(alarm.level).toBeLessThan(10 + 1.5 * shift);
          expect(alarm.low).toBeLessThan(alarm.level);
          expect(alarm.high).toBeGreaterThan(alarm.level);
        }
      }
      delays[`${shift}σ`] = found.reduce((a, b) => a + b, 0) / found.length;
    }
    console.info(
      `mean windows from a step to its alarm (1 false alarm/month stated): ${JSON.stringify(delays)}`,
    );
    expect(delays['2σ']).toBeLessThan(delays['1σ'] as number);
    expect(delays['3σ']).toBeLessThanOrEqual(delays['2σ'] as number);
  }, 120_000);

  it('watches one direction only when asked: a fall raises nothing on an up-only detector', () => {
    const random = seededRandom(3);
    const series = Array.from({ length: 2_000 }, (_, i) => ({
      at: i * WINDOW_MS,
      value: 10 + normal(random) - (i >= 1_200 ? 3 : 0),
    }));
    expect(watchSeries(series, watch('level', 'up')).filter((a) => a.at >= 1_200 * WINDOW_MS)).toEqual([]);
    expect(
      watchSeries(series, watch('level', 'down')).find((a) => a.at >= 1_200 * WINDOW_MS)?.direction,
    ).toBe('down');
  });
});
