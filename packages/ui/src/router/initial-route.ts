import { href } from './route.js';

/**
 * Where a bare visit to `/` lands: `/?project=<name>` (a link the CLI can
 * print) opens that project's calls; with no hash at all, the project opened
 * last in this browser; otherwise the project picker. An explicit `#/` always
 * shows the picker.
 */
export function initialHash(search: string, hash: string, recent: readonly string[]): string | undefined {
  const project = new URLSearchParams(search).get('project');
  if (project) return href(project, ['traces']);
  if (hash === '' && recent[0] !== undefined) return href(recent[0], ['traces']);
  return undefined;
}
