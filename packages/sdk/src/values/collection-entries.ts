const mapEntries = Map.prototype.entries;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size')?.get as (this: object) => number;
const setValues = Set.prototype.values;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size')?.get as (this: object) => number;

/** Up to `max` entries of a Map (as fresh `[key, value]` pairs) and its full size, read through the intrinsic iterator. */
export function mapEntriesOf(map: object, max: number): { size: number; items: [unknown, unknown][] } {
  return take(mapSize.call(map), mapEntries.call(map as Map<unknown, unknown>), max);
}

/** Up to `max` values of a Set and its full size, read through the intrinsic iterator. */
export function setValuesOf(set: object, max: number): { size: number; items: unknown[] } {
  return take(setSize.call(set), setValues.call(set as Set<unknown>), max);
}

function take<T>(size: number, iterator: Iterator<T>, max: number): { size: number; items: T[] } {
  const items: T[] = [];
  while (items.length < max) {
    const step = iterator.next();
    if (step.done) break;
    items.push(step.value);
  }
  return { size, items };
}
