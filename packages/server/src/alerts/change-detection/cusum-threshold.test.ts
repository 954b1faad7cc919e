import { describe, expect, it } from 'vitest';
import { cusumThreshold, siegmundArl, windowsPerMonth } from './cusum-threshold.js';

describe('cusumThreshold', () => {
  it('matches the tabulated run length of the k = 0.5, h = 5 CUSUM (≈ 930 windows)', () => {
    expect(siegmundArl(5, 0.5)).toBeGreaterThan(900);
    expect(siegmundArl(5, 0.5)).toBeLessThan(960);
  });

  it('gives a threshold whose run length is the windows per false alarm, twice that for each of two sides', () => {
    const perMonth = windowsPerMonth(300_000);
    expect(perMonth).toBe(8_640);
    const oneSided = cusumThreshold({ falseAlarmsPerMonth: 1, windowsPerMonth: perMonth, sides: 1, k: 0.5 });
    const twoSided = cusumThreshold({ falseAlarmsPerMonth: 1, windowsPerMonth: perMonth, sides: 2, k: 0.5 });
    expect(siegmundArl(oneSided, 0.5)).toBeCloseTo(8_640, -1);
    expect(siegmundArl(twoSided, 0.5)).toBeCloseTo(17_280, -1);
    expect(twoSided).toBeGreaterThan(oneSided);
  });
});
