/**
 * A cost in US dollars as people read it, shared by `weft calls` and the web
 * UI so both print the same text: `$1,234.56` and `$1.23` from a dollar up;
 * below it three significant digits with at least two decimals (`$0.50`,
 * `$0.0123`, `$0.0000243`), so a tiny positive cost never rounds to `$0`.
 * `undefined` (an unpriced model: no cost) gives `''` — absent, not zero.
 *
 * Depends on nothing, so the UI imports this file by path without zod.
 */
export function formatUsd(dollars: number | undefined): string {
  if (dollars === undefined || !Number.isFinite(dollars) || dollars < 0) return '';
  if (dollars === 0) return '$0.00';
  if (dollars >= 1) {
    return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  }
  // Three significant digits: 0.0123 has its first digit at 10^-2, so 4 decimals.
  const decimals = Math.min(20, Math.max(2, 2 - Math.floor(Math.log10(dollars))));
  const text = dollars.toFixed(decimals).replace(/(\.\d{2}\d*?)0+$/, '$1');
  return `$${text}`;
}
