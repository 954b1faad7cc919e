/** Two-sided 95% critical values of Student's t for df = 1…30 (standard tables, 3 decimals). */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The standard normal's 97.5% quantile. */
export const Z_975 = 1.959963984540054;

/**
 * The critical value t such that P(|T| ≤ t) = 0.95 for Student's t with
 * `df` degrees of freedom. Up to df 30 from the table; beyond, the
 * Cornish–Fisher expansion of t around the normal quantile z,
 * t ≈ z + (z³ + z)/(4·df) + (5z⁵ + 16z³ + 3z)/(96·df²), which is within
 * 0.001 of the exact value for df > 30 and tends to z = 1.96 — so there is no
 * jump at df 31 as there would be switching straight to the normal.
 */
export function tCritical95(df: number): number {
  if (!(df >= 1)) return Number.NaN;
  if (df <= 30) return T_975[Math.floor(df) - 1] as number;
  const z = Z_975;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}
