import { describe, expect, it } from 'vitest';
import { captureIo } from '../../../test/support/capture-io.js';
import { parseCommandLine } from '../../cli/parse-command-line.js';
import { ExitCode } from '../../exit/exit-code.js';

/** Each option of `weft <argv> --help` and its help words (wrapped lines joined). */
function optionHelp(argv: string[]): Map<string, string> {
  const io = captureIo();
  parseCommandLine([...argv, '--help'], io);
  const options = new Map<string, string>();
  let current: string | undefined;
  for (const line of io.out().split('\n')) {
    const option = /^ {2}(-{1,2}[\w-]+(?:, --[\w-]+)?)(?: <[^>]+>| \[[^\]]+\])? +(.*)$/.exec(line);
    if (option) {
      current = option[1] as string;
      options.set(current, option[2] as string);
    } else if (current !== undefined && /^ {4,}\S/.test(line)) {
      options.set(current, `${options.get(current)} ${line.trim()}`);
    } else current = undefined;
  }
  return options;
}

describe('weft calls, calls export and calls delete: one table of filter flags', () => {
  it.each([
    {
      argv: ['calls', 'export', '--help'],
      stdout:
        /Usage: weft calls export[\s\S]*--op <name>[\s\S]*--text <words>[\s\S]*--attr <key=value> +attribute equals value[\s\S]*--session <id> +only calls of this session[\s\S]*--user <id>[\s\S]*--since <time> +started at or after[\s\S]*--until <time>[\s\S]*--roots[\s\S]*--format <format>/,
    },
    {
      argv: ['calls', 'delete', '--help'],
      stdout:
        /Usage: weft calls delete[\s\S]*--trace <id>[\s\S]*--attr <key=value> +traces with a call whose attribute equals value[\s\S]*--session <id> +traces of this session[\s\S]*--user <id> +traces with a call whose 'user.id'[\s\S]*--since <time> +traces with a call started at or after[\s\S]*--until <time> +traces with a call started before[\s\S]*--dry-run/,
    },
  ])('weft $argv shows the filter flags', ({ argv, stdout }) => {
    const io = captureIo();
    expect(parseCommandLine(argv, io)).toMatchObject({ kind: 'exit', exitCode: ExitCode.ok });
    expect(io.out()).toMatch(stdout);
  });

  it('calls export describes each filter flag it shares with calls in the same words', () => {
    const calls = optionHelp(['calls']);
    const exported = optionHelp(['calls', 'export']);
    const shared = ['--op', '--text', '--attr', '--session', '--user', '--since', '--until', '--roots'];
    for (const flag of shared) expect([flag, exported.get(flag)]).toEqual([flag, calls.get(flag)]);
  });

  it('calls delete words each filter flag for the traces it matches, with the same value forms', () => {
    const calls = optionHelp(['calls']);
    const deleted = optionHelp(['calls', 'delete']);
    for (const flag of ['--attr', '--session', '--user', '--since', '--until'])
      expect([flag, deleted.get(flag)]).toEqual([flag, expect.stringMatching(/^traces /)]);
    expect(deleted.get('--since')).toContain(calls.get('--since')?.replace(/^started /, '') as string);
  });
});
