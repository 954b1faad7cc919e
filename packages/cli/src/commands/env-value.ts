import { InvalidArgumentError } from 'commander';
import type { CliIo } from '../io/index.js';
import { UsageError } from '../errors/index.js';

/**
 * A setting's value from its flag, else from its environment variable, run
 * through the same parser either way; an empty variable counts as unset. A bad
 * environment value is a usage error naming the variable (commander has
 * already named the flag for a bad flag value).
 */
export function flagOrEnv<T>(
  flag: T | undefined,
  env: CliIo['env'],
  name: string,
  parse: (value: string) => T,
): T | undefined {
  if (flag !== undefined) return flag;
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    return parse(raw);
  } catch (error) {
    if (error instanceof InvalidArgumentError) {
      throw new UsageError(`${name}=${JSON.stringify(raw)} is invalid: ${error.message}`);
    }
    throw error;
  }
}
