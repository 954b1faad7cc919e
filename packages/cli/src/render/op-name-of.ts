import { parseRef } from '@weft/protocol';

/**
 * The plain op name of a call's `opName`: op refs
 * (`weft:///p/op/name:digest`) give their name, plain names stay as they are.
 */
export function opNameOf(opName: string): string {
  if (!opName.startsWith('weft:///')) return opName;
  try {
    const ref = parseRef(opName);
    return ref.kind === 'op' || ref.kind === 'object' ? ref.name : opName;
  } catch {
    return opName;
  }
}
