import type { ProjectSettingsResponse } from '@weft/protocol';
import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { readProjectSettings, resolveProject, writeProjectSettings } from '../../server-api/index.js';
import type { RetentionOptions } from './retention-options.js';

/**
 * `weft projects retention`: prints the retention in force (and where it
 * comes from); with `--set`, changes it first, keeping the keep rules.
 */
export async function retention(options: RetentionOptions, io: CliIo): Promise<number> {
  const target = { url: options.url, token: options.token };
  const project = await resolveProject(target, options.project);
  let settings = await readProjectSettings(target, project);
  if (options.set !== undefined) {
    const retentionDays = options.set === 'none' ? null : options.set === 'default' ? undefined : options.set;
    settings = await writeProjectSettings(target, project, {
      ...(retentionDays === undefined ? {} : { retentionDays }),
      keepRules: settings.keepRules,
    });
  }
  io.stdout.write(options.json ? `${JSON.stringify(settings)}\n` : `${describe(settings)}\n`);
  return ExitCode.ok;
}

function days(value: number | null): string {
  return value === null ? 'kept until deleted' : `${value} days`;
}

function describe(settings: ProjectSettingsResponse): string {
  const source = settings.retentionDays === undefined ? "the server's default" : 'set for the project';
  const rules = settings.keepRules.map((rule) => rule.name);
  return [
    `${settings.project}: ${days(settings.effectiveRetentionDays)} (${source}; server default: ${days(settings.defaultRetentionDays)})`,
    rules.length === 0 ? 'keep rules: none' : `keep rules: ${rules.join(', ')}`,
  ].join('\n');
}
