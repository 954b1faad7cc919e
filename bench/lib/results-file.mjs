// bench/RESULTS.md holds one "## <heading>" section per benchmark script;
// each script rewrites only its own section, leaving the others as they are,
// and the section names the commit it measured. History goes to bench/history/.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));

/**
 * Replaces the section that starts with `## ${heading}` (up to the next
 * `## `) by `section`, or appends it when the file has none yet.
 * `section` must start with that same heading line.
 */
export async function writeResultsSection(heading, section) {
  const marker = `## ${heading}\n`;
  if (!section.startsWith(marker)) throw new Error(`section must start with "${marker.trim()}"`);
  // Every current figure names the build it measured (RESULTS.md keeps one section per benchmark).
  section = `${marker}\n_Measured at ${measuredCommit()}._\n${section.slice(marker.length)}`;
  let text = await readFile(RESULTS, 'utf8').catch(() => '# Benchmark results\n');
  const start = text.startsWith(marker) ? 0 : text.indexOf(`\n${marker}`) + 1;
  if (start <= 0 && !text.startsWith(marker)) {
    text = `${text.trimEnd()}\n\n${section.trimEnd()}\n`;
  } else {
    const after = text.indexOf('\n## ', start + 1);
    text = `${text.slice(0, start)}${section.trimEnd()}\n${after < 0 ? '' : `\n${text.slice(after + 1)}`}`;
  }
  await writeFile(RESULTS, text);
}

/** The checked-out commit, marked when the tree had uncommitted changes (then the figure is of no commit). */
function measuredCommit() {
  const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return dirty ? `commit ${head} with uncommitted changes` : `commit ${head}`;
  } catch {
    return 'an unknown commit (no git)';
  }
}
