import { readFile } from 'node:fs/promises';
import { InvalidOptionsError } from '../errors/index.js';
import { redactedIssuePath } from './redacted-issue-path.js';
import { projectTokens } from './server-options.js';

/**
 * Reads per-project tokens from a JSON file `{ "<token>": ["projA", …] }`
 * (what `weft serve --tokens-file` takes). Throws `WEFT_INVALID_OPTIONS`
 * naming the file and the bad entry by position; messages never quote the
 * file's content, since it is made of secrets.
 */
export async function readTokensFile(path: string): Promise<Record<string, string[]>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidOptionsError(
      'projectTokens',
      `cannot read tokens file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error: a token.
    throw new InvalidOptionsError(
      'projectTokens',
      `tokens file ${path} is not valid JSON; expected { "<token>": ["project", …] }`,
    );
  }
  const result = projectTokens.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue
    ? redactedIssuePath(['projectTokens', ...issue.path], { projectTokens: json })
    : 'projectTokens';
  throw new InvalidOptionsError(
    where,
    `in tokens file ${path}: ${issue?.message ?? 'invalid'}; expected { "<token>": ["project", …] }`,
  );
}
