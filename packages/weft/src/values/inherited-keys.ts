/**
 * True when `for…in` over an object with this prototype would also list
 * inherited members: someone gave Object.prototype an enumerable property.
 * The snapshot and the encoder walk plain objects with `for…in` (no key
 * array allocated per object) only while this is false.
 */
export function hasEnumerable(proto: object): boolean {
  for (const _ in proto) return true;
  return false;
}
