import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One row of the fault × outcome table. */
export interface FaultRow {
  /** Position in the fault table (rows are listed in that order). */
  order: number;
  fault: string;
  calls: number;
  onServer: number;
  duplicates: number;
  userErrors: number;
  timeMs: number;
  /** Flush outcome and anything worth a note (retries, spills, unclaimed calls). */
  notes: string;
}

const artifacts = fileURLToPath(new URL('../../../../test-artifacts/', import.meta.url));
const rowsDir = join(artifacts, 'fault-rows');

/**
 * Records `row` and rewrites test-artifacts/fault-table.md from every row
 * recorded so far (the fault test files run in parallel workers; each
 * rewrites the whole table from the row files, so the last writer has all).
 */
export async function recordFaultRow(row: FaultRow): Promise<void> {
  await mkdir(rowsDir, { recursive: true });
  await writeFile(join(rowsDir, `${String(row.order).padStart(2, '0')}.json`), JSON.stringify(row));
  const rows: FaultRow[] = [];
  for (const name of (await readdir(rowsDir)).sort()) {
    if (!name.endsWith('.json')) continue;
    try {
      rows.push(JSON.parse(await readFile(join(rowsDir, name), 'utf8')) as FaultRow);
    } catch {
      // A row being written by another worker right now; its writer rewrites the table after it.
    }
  }
  const lines = [
    '| Fault | Calls | On server | Duplicates | User errors | Time (s) | Notes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.calls.toLocaleString('en-US')} | ${r.onServer.toLocaleString('en-US')} | ${r.duplicates} | ${r.userErrors} | ${(r.timeMs / 1000).toFixed(1)} | ${r.notes} |`,
    ),
  ];
  await writeFile(join(artifacts, 'fault-table.md'), `${lines.join('\n')}\n`);
}
