// bench/RESULTS.md holds one "## <heading>" section per benchmark script;
// each script rewrites only its own section, leaving the others as they are.
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
