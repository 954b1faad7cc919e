/** The slice of a long list of fixed-height rows worth rendering. */
export interface VirtualWindow {
  /** First row index to render (inclusive). */
  start: number;
  /** Last row index to render (exclusive). */
  end: number;
  /** Pixel offset of row `start` from the top of the list. */
  offsetPx: number;
  /** Height of the whole list, so the scrollbar is right. */
  totalPx: number;
}

/**
 * Rows visible in a viewport of `viewportPx` scrolled to `scrollTopPx`, plus
 * `overscan` rows either side so fast scrolling does not show blanks. Only
 * these are put in the DOM: a 5,000-call trace costs ~60 row elements.
 */
export function virtualWindow(
  count: number,
  rowPx: number,
  scrollTopPx: number,
  viewportPx: number,
  overscan = 10,
): VirtualWindow {
  const first = Math.floor(Math.max(0, scrollTopPx) / rowPx);
  const visible = Math.ceil(Math.max(0, viewportPx) / rowPx) + 1;
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.min(count, first + visible + overscan);
  return { start, end, offsetPx: start * rowPx, totalPx: count * rowPx };
}

/** The scrollTop that brings row `index` into view, or undefined when it is already visible. */
export function scrollToReveal(
  index: number,
  rowPx: number,
  scrollTopPx: number,
  viewportPx: number,
): number | undefined {
  const top = index * rowPx;
  if (top < scrollTopPx) return top;
  if (top + rowPx > scrollTopPx + viewportPx) return top + rowPx - viewportPx;
  return undefined;
}
