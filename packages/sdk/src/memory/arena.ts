/**
 * Blocks of memory that encoded records are written into back to back
 * (the safe encoder's output), reused once every record in a block was
 * given back.
 *
 * Why: records live until the server acknowledges them, so without reuse
 * every record was written into fresh memory, whose first write costs page
 * faults; in an 80 KB burst that made encoding several times slower than
 * writing into memory already in use.
 *
 * Nothing is allocated until the first record is written: importing the
 * SDK must not cost megabytes.
 */
export interface Arena {
  readonly buf: Buffer;
  readonly view: DataView;
  /** Records in this arena not given back yet. */
  live: number;
}

/** Arena size: a new one is taken when a record does not fit in the current one. */
export const ARENA_BYTES = 4 << 20;

/** Most spare arenas kept (each {@link ARENA_BYTES}); more are left to the garbage collector. */
const MAX_SPARES = 2;

const arenas = new WeakMap<ArrayBufferLike, Arena>();
/** Arenas whose records were all given back, for the writer's next arena. */
const spares: Arena[] = [];

/** The writer's arena before its first record: no memory (see the module comment). */
export const EMPTY_ARENA: Arena = (() => {
  const buf = Buffer.alloc(0);
  return { buf, view: new DataView(buf.buffer, buf.byteOffset, 0), live: 0 };
})();

/** An arena with room for `needed` bytes: a spare one when it fits, else a new one. */
export function takeArena(needed: number): Arena {
  const spare = needed <= ARENA_BYTES ? spares.pop() : undefined;
  if (spare !== undefined) return spare;
  const buf = Buffer.allocUnsafeSlow(Math.max(ARENA_BYTES, needed * 2));
  const arena: Arena = { buf, view: new DataView(buf.buffer, buf.byteOffset, buf.byteLength), live: 0 };
  arenas.set(buf.buffer, arena);
  return arena;
}

/** The arena `bytes` were written into, or `undefined` for bytes from elsewhere. */
export function arenaOf(bytes: Uint8Array): Arena | undefined {
  return arenas.get(bytes.buffer);
}

/** Keeps an arena whose records were all given back, for reuse (only full-size ones, up to {@link MAX_SPARES}). */
export function keepSpare(arena: Arena): void {
  if (arena.buf.length === ARENA_BYTES && spares.length < MAX_SPARES) spares.push(arena);
}
