// Test helper only: no entry point imports it, so it never reaches dist.
import type { CliIo } from '../../src/io/index.js';

/** A CliIo whose output is collected in strings, for asserting on what a command printed. */
export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
}

export function captureIo(env: Record<string, string | undefined> = {}, signal?: AbortSignal): CapturedIo {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: (chunk: string) => (err += chunk) },
    env,
    signal,
    out: () => out,
    err: () => err,
  };
}
