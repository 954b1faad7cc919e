import { WeftError } from '@weft/protocol';
import { ExitCode } from './exit-code.js';

// Codes raised by the server and by this CLI, by what they mean to a script.
const byCode: Readonly<Record<string, ExitCode>> = {
  WEFT_USAGE: ExitCode.usage,
  WEFT_OUTLINE_BUDGET: ExitCode.usage,
  WEFT_INVALID_OPTIONS: ExitCode.usage,
  WEFT_INVALID_REQUEST: ExitCode.usage,
  WEFT_TOKEN_REQUIRED: ExitCode.usage,
  WEFT_UNAUTHORIZED: ExitCode.authRefused,
  WEFT_NOT_FOUND: ExitCode.notFound,
  WEFT_RUN_NOT_FOUND: ExitCode.notFound,
};

/**
 * The exit code for an error that ended a command. Unknown and non-Weft
 * errors are runtime failures (1): only errors we recognise earn a more
 * specific code, so a script never mistakes a crash for "not found".
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (!WeftError.isInstance(error)) return ExitCode.failure;
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  if (statusCode === 401 || statusCode === 403) return ExitCode.authRefused;
  if (statusCode === 404) return ExitCode.notFound;
  return byCode[error.code] ?? ExitCode.failure;
}
