import { describe, expect, it } from 'vitest';
import { scrollToReveal, virtualWindow } from './virtual-window.js';

describe('virtualWindow', () => {
  it('renders only the visible rows plus overscan', () => {
    const w = virtualWindow(5_000, 28, 28 * 1_000, 560, 10);
    expect(w.start).toBe(990);
    expect(w.end).toBe(1_000 + 21 + 10);
    expect(w.offsetPx).toBe(990 * 28);
    expect(w.totalPx).toBe(5_000 * 28);
  });

  it('clamps at both ends', () => {
    expect(virtualWindow(5, 28, 0, 560)).toMatchObject({ start: 0, end: 5 });
    expect(virtualWindow(0, 28, 100, 560)).toMatchObject({ start: 0, end: 0, totalPx: 0 });
  });

  it('scrolls just enough to reveal a row', () => {
    expect(scrollToReveal(0, 28, 280, 560)).toBe(0);
    expect(scrollToReveal(40, 28, 0, 560)).toBe(41 * 28 - 560);
    expect(scrollToReveal(12, 28, 0, 560)).toBeUndefined();
  });
});
