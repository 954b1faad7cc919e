import { parseRef } from '@weft/protocol';

const OP_PREFIX = 'weft:///';
/** Op names repeat across calls; remembering recent ones skips a parse per ingested call. */
const MAX_REMEMBERED = 1_024;
const remembered = new Map<string, string>();

/**
 * The plain name of an op: `weft:///p/op/<name>:<digest>` gives `<name>`; any
 * other string is already plain. Stored beside the raw op name so filters and
 * sorts by name match every version of an op.
 */
export function plainOpName(opName: string): string {
  if (!opName.startsWith(OP_PREFIX)) return opName;
  let plain = remembered.get(opName);
  if (plain === undefined) {
    plain = parse(opName);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(opName, plain);
  }
  return plain;
}

function parse(opName: string): string {
  try {
    const ref = parseRef(opName);
    return ref.kind === 'op' || ref.kind === 'object' ? ref.name : opName;
  } catch {
    return opName;
  }
}
