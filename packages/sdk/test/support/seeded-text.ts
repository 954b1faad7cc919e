/** Text of `n` characters that differs per `seed`: a large string value of a known size. */
export function seededText(seed: number, n: number): string {
  return `${seed}:${'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27))}`.slice(0, n);
}
