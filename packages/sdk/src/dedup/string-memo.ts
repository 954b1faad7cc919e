/**
 * Longest string V8 hashes by its characters; a longer one is hashed by its
 * length alone (`String::kMaxHashCalcLength`), so in a `Map` every remembered
 * string of that length shares one bucket.
 */
const MAX_HASHED_CHARS = 16_383;
/** Characters sampled for the fingerprint of a longer string. */
const SAMPLES = 32;

/** What a remembered long string's bucket holds. */
interface LongEntry<T> {
  readonly s: string;
  readonly value: T;
}

/**
 * Large strings and what was computed for each (their digest), found by the
 * string itself: a string seen before is recognized without its bytes being
 * written, compared or hashed.
 *
 * A `Map` keyed by the string does this well up to {@link MAX_HASHED_CHARS}.
 * Past it, V8 hashes by length only: a lookup walked every remembered string
 * of the same length and compared it up to the first difference, even for
 * the very string it was given: texts filled in from one template (a 30 KB
 * prompt with a fixed-width tail, 32 of them) cost 60–80 µs a lookup, now
 * 0.1 µs. Longer strings are therefore keyed by a fingerprint of their length and
 * {@link SAMPLES} characters spread over them, and a bucket is searched with
 * `===`, which answers at once for the same string object; an equal copy
 * (a freshly decoded response) still costs one comparison of its characters.
 * (Keeping the copy found instead, so that its next lookup answers by
 * identity, was measured and dropped: it keeps each fresh 80 KB reply alive
 * past the young generation, and the scavenges that copy it cost more than
 * the comparisons saved (`bench/peer-step.mjs --size 81920`, load 15:
 * 1.15× the CPU per step of the build before, against 1.02× without it).)
 *
 * Bounded by characters, oldest dropped first.
 */
export class StringMemo<T> {
  readonly #maxChars: number;
  readonly #maxStringChars: number;
  readonly #short = new Map<string, T>();
  readonly #long = new Map<number, LongEntry<T>[]>();
  /** Remembered strings (long ones as their entry, dropped by identity, without comparing texts), oldest first (from `#head`): the eviction order. */
  #order: (string | LongEntry<T>)[] = [];
  #head = 0;
  #chars = 0;

  /** `maxChars`: characters remembered in all; `maxStringChars`: of one string, past which it is not remembered. */
  constructor(maxChars: number, maxStringChars: number) {
    this.#maxChars = maxChars;
    this.#maxStringChars = maxStringChars;
  }

  get(s: string): T | undefined {
    if (s.length <= MAX_HASHED_CHARS) return this.#short.get(s);
    const bucket = this.#long.get(fingerprint(s));
    if (bucket === undefined) return undefined;
    for (const entry of bucket) if (entry.s === s) return entry.value;
    return undefined;
  }

  /** Remembers `value` for `s` unless `s` is remembered already (or too long to be). */
  set(s: string, value: T): void {
    if (s.length > this.#maxStringChars || this.get(s) !== undefined) return;
    if (s.length <= MAX_HASHED_CHARS) {
      this.#short.set(s, value);
      this.#order.push(s);
    } else {
      const key = fingerprint(s);
      const entry: LongEntry<T> = { s, value };
      const bucket = this.#long.get(key);
      if (bucket === undefined) this.#long.set(key, [entry]);
      else bucket.push(entry);
      this.#order.push(entry);
    }
    this.#chars += s.length;
    while (this.#chars > this.#maxChars) this.#dropOldest();
  }

  #dropOldest(): void {
    const oldest = this.#order[this.#head++] as string | LongEntry<T>;
    if (typeof oldest === 'string') {
      this.#chars -= oldest.length;
      this.#short.delete(oldest);
    } else {
      this.#chars -= oldest.s.length;
      const key = fingerprint(oldest.s);
      // By the entry, not its characters: no comparison of a long string to drop it.
      const rest = (this.#long.get(key) ?? []).filter((entry) => entry !== oldest);
      if (rest.length === 0) this.#long.delete(key);
      else this.#long.set(key, rest);
    }
    // Compact the queue once its dropped head is the larger part.
    if (this.#head > 1_024 && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }
}

/**
 * The length of `s` (longer than {@link MAX_HASHED_CHARS}) and {@link SAMPLES}
 * of its characters mixed into an int: its last 8 (a template's variable tail:
 * texts of one length that share a long prefix), its first 8 and 16 spread over it.
 */
function fingerprint(s: string): number {
  const n = s.length;
  let h = n | 0;
  for (let i = 1; i <= 8; i++) h = (Math.imul(h, 31) + s.charCodeAt(n - i)) | 0;
  for (let i = 0; i < 8; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  for (let i = 1; i <= SAMPLES - 16; i++)
    h = (Math.imul(h, 31) + s.charCodeAt(Math.floor((i * n) / (SAMPLES - 15)))) | 0;
  return h;
}
