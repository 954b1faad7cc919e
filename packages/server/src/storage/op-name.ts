import { parseRef } from '@weft/protocol';

const OP_PREFIX = 'weft:///';

/**
 * The plain name of an op: `weft:///p/op/<name>:<digest>` gives `<name>`; any
 * other string is already plain. Stored beside the raw op name so filters and
 * sorts by name match every version of an op.
 */
export function plainOpName(opName: string): string {
  if (!opName.startsWith(OP_PREFIX)) return opName;
  try {
    const ref = parseRef(opName);
    return ref.kind === 'op' || ref.kind === 'object' ? ref.name : opName;
  } catch {
    return opName;
  }
}
