// `isWellFormed`/`toWellFormed` are ES2024 (Node 20 has them); the repo's lib is ES2023.
type Es2024String = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * `s` with every lone UTF-16 surrogate replaced by U+FFFD. The check is a
 * native scan without allocation; a copy is made only when one is found, so
 * well-formed strings (nearly all) are returned as they are.
 */
export function wellFormed(s: string): string {
  return (s as Es2024String).isWellFormed() ? s : (s as Es2024String).toWellFormed();
}

/**
 * The first `max` code units of `s`, one fewer when that would split a
 * surrogate pair, made well-formed.
 */
export function head(s: string, max: number): string {
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return wellFormed(s.slice(0, end));
}
