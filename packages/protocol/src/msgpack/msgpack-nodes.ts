import { MsgpackKind, readMsgpackHeader } from './msgpack-layout.js';

/**
 * What {@link countMsgpackNodes} found, before anything was decoded:
 * - `within`: the value holds `nodes` values (map keys count, containers
 *   count once each) and ends at `end`;
 * - `over`: it holds more than `maxNodes` (counting stopped there);
 * - `binary`: a `bin` at `offset`, where `allowBinary` is false;
 * - `malformed`: not one msgpack value (a byte that starts none, a container
 *   that declares more children than bytes remain, bytes cut short).
 */
export type MsgpackNodeCount =
  | { status: 'within'; nodes: number; end: number }
  | { status: 'over'; maxNodes: number }
  | { status: 'binary'; offset: number }
  | { status: 'malformed'; reason: string };

/** Options of {@link countMsgpackNodes}. */
export interface MsgpackNodeCountOptions {
  /** Most values accepted; counting stops past it. */
  maxNodes: number;
  /** `bin` values pass as leaves when true (their bytes are not read). @default true */
  allowBinary?: boolean;
  /** Where the value starts. @default 0 */
  start?: number;
}

/**
 * Counts the values of the msgpack value at `start` by reading headers only
 * (iterative, so any depth): what decoding would materialise, bounded before
 * it is. A body's byte size does not bound its decoded cost: 60 MB of empty
 * maps decode to 60 million objects (gigabytes of heap), so the server
 * counts first and refuses past its node limit in milliseconds.
 */
export function countMsgpackNodes(
  b: Uint8Array,
  { maxNodes, allowBinary = true, start = 0 }: MsgpackNodeCountOptions,
): MsgpackNodeCount {
  const end = b.byteLength;
  let pos = start;
  let pending = 1;
  let nodes = 0;
  while (pending > 0) {
    if (pos >= end) return { status: 'malformed', reason: 'the value is cut short' };
    pending--;
    if (++nodes > maxNodes) return { status: 'over', maxNodes };
    let header: ReturnType<typeof readMsgpackHeader>;
    try {
      header = readMsgpackHeader(b, pos);
    } catch (error) {
      return { status: 'malformed', reason: (error as Error).message };
    }
    const at = pos;
    pos += header.headerLength;
    // Every child takes at least one byte: a container declaring more
    // children than bytes remain is malformed, and is refused before a
    // decoder could allocate for them.
    if (header.kind === MsgpackKind.Array || header.kind === MsgpackKind.Map) {
      const children = header.kind === MsgpackKind.Map ? 2 * header.size : header.size;
      if (children > end - pos)
        return {
          status: 'malformed',
          reason: `a container at ${at} declares ${children} values in ${end - pos} bytes`,
        };
      pending += children;
    } else {
      if (header.kind === MsgpackKind.Bin && !allowBinary) return { status: 'binary', offset: at };
      pos += header.size;
    }
  }
  if (pos > end) return { status: 'malformed', reason: 'the value is cut short' };
  return { status: 'within', nodes, end: pos };
}
