import { CALL_ID, PROJECT_NAME } from '@weft/protocol';
import { InvalidArgumentError } from 'commander';

// Value parsers for flags. Commander reports their errors as usage errors
// (exit 2) naming the flag, e.g. "option '--port <port>' argument 'x' is invalid."

/** A TCP port, 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new InvalidArgumentError('Expected a port number from 0 to 65535 (0 picks a free port).');
  }
  return port;
}

/** A whole number of at least 1. */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError('Expected a whole number of at least 1.');
  }
  return n;
}

/** An http(s) URL. */
export function parseHttpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('Expected an http:// or https:// URL, e.g. http://127.0.0.1:7420.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`Expected an http:// or https:// URL, got the scheme ${url.protocol}`);
  }
  return value.replace(/\/+$/, '');
}

/** A non-empty string. */
export function parseNonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('Expected a non-empty value.');
  return value;
}

/** A project name, as the server accepts it. */
export function parseProject(value: string): string {
  if (!PROJECT_NAME.test(value)) {
    throw new InvalidArgumentError(
      'Expected 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit.',
    );
  }
  return value;
}

/** A call id (a UUID), lower-cased as the SDK mints them. */
export function parseCallId(value: string): string {
  if (!CALL_ID.test(value)) throw new InvalidArgumentError('Expected a call id (a UUID).');
  return value.toLowerCase();
}
