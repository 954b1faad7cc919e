import { DIGEST, LABEL_NAME, OBJECT_NAME } from '@weft/protocol';
import { InvalidOptionsError } from '../errors/index.js';

/** An object named by `Name`, `Name:latest`, `Name:v3`, `Name:<label>` or `Name:<digest>`. */
export interface NameSelector {
  name: string;
  /** As the server's read path takes it: `latest`, `v<N>`, a label or a digest. */
  version: string;
}

/**
 * Parses `'Prompt'`, `'Prompt:latest'`, `'Prompt:v3'`, `'Prompt:production'`
 * or `'Prompt:<digest>'`. A bare name means `latest`. Throws
 * `WEFT_INVALID_OPTIONS` naming what is malformed.
 */
export function parseNameSelector(text: string): NameSelector {
  const colon = text.lastIndexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const version = colon < 0 ? 'latest' : text.slice(colon + 1);
  if (!OBJECT_NAME.test(name)) {
    throw new InvalidOptionsError(
      'ref',
      `get: ${JSON.stringify(text)} is neither a weft:/// ref nor an object name (letters, digits, ".", "_", "-").`,
    );
  }
  const valid =
    version === 'latest' ||
    /^v[1-9][0-9]{0,9}$/.test(version) ||
    DIGEST.test(version) ||
    LABEL_NAME.test(version);
  if (!valid) {
    throw new InvalidOptionsError(
      'ref',
      `get: the version in ${JSON.stringify(text)} must be latest, v<N>, a label or a digest.`,
    );
  }
  return { name, version };
}
