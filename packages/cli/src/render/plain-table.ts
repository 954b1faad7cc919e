import Table from 'cli-table3';

/**
 * cli-table3 options for a borderless table: columns two spaces apart, no
 * colours, so the text reads the same on a terminal and in a pipe.
 */
export const PLAIN_TABLE = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '  ',
  },
  style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [] },
};

/**
 * A plain table as text: the header, a rule under it sized to each column
 * (when `rule` is set), then the rows; trailing spaces trimmed so the output
 * diffs cleanly.
 */
export function formatPlainTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  { rule = true }: { rule?: boolean } = {},
): string {
  const table = new Table(PLAIN_TABLE);
  table.push([...header]);
  if (rule) {
    table.push(
      header.map((title, i) => '─'.repeat(Math.max(title.length, ...rows.map((row) => row[i]!.length)))),
    );
  }
  table.push(...rows.map((row) => [...row]));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
