import { hasCode, WeftError } from '@weft/protocol';

/** The digest a client sent is not the one the server computes for the same content. */
export class DigestMismatchError extends WeftError {
  readonly expected: string;
  readonly actual: string;
  /** The request field that carried the wrong digest. */
  readonly path: string;
  /** For a batch item: its index in the batch, so the client drops exactly that item. */
  readonly index: number | undefined;

  constructor({
    expected,
    actual,
    path = 'digest',
    index,
  }: { expected: string; actual: string; path?: string; index?: number }) {
    super({
      code: 'WEFT_DIGEST_MISMATCH',
      message: `Digest mismatch at ${path}: the server computed ${expected} but the request says ${actual}. Compute it with digestValue() from @weft/protocol over the exact value sent.`,
    });
    this.expected = expected;
    this.actual = actual;
    this.path = path;
    this.index = index;
  }

  /** True for this error from any copy of the package (checks the brand and the code). */
  static override isInstance(value: unknown): value is DigestMismatchError {
    return hasCode(value, 'WEFT_DIGEST_MISMATCH');
  }
}
