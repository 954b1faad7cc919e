import { canonicalJson, parseRef } from '@weft/protocol';
import type { Storage } from '../../storage/index.js';
import { copyContent, refsOf } from './copy-content.js';

/** Table rows read per request. */
const TABLE_ROWS_PER_READ = 1_000;

/** `weft:///<project>/table/<digest>` refs inside an object's value (datasets name their rows so). */
const TABLE_REF = /weft:\/\/\/[^/"]+\/table\/[^/"\s]+/g;

/** What copying a project's objects wrote to the target. */
export interface ObjectsCopied {
  objects: number;
  tables: number;
  tableRows: number;
  labels: number;
  values: number;
  files: number;
}

/**
 * Copies every object version of a project (oldest first per name, so the
 * target numbers them as the source does), the tables their values name
 * (datasets: rows, then the table) with what rows refer to, and labels.
 * Every write is idempotent (a stored digest is a no-op), so a re-run
 * creates nothing again; counts are of what was new to the target.
 */
export async function copyObjects(source: Storage, target: Storage, project: string): Promise<ObjectsCopied> {
  const copied: ObjectsCopied = { objects: 0, tables: 0, tableRows: 0, labels: 0, values: 0, files: 0 };
  const tables = new Set<string>();
  for (const { name } of await source.listObjects(project)) {
    for (const version of await source.listObjectVersions(project, name)) {
      const read = await source.readObject(project, name, { digest: version.digest });
      if (read === undefined) continue;
      const canonicalValue = canonicalJson(read.value);
      for (const ref of canonicalValue.match(TABLE_REF) ?? []) {
        const parsed = parseRef(ref);
        if (parsed.kind === 'table' && parsed.project === project) tables.add(parsed.digest);
      }
      for (const digest of tables) await copyTable(source, target, project, digest, copied);
      tables.clear();
      const content = await copyContent(source, target, project, refsOf(read.value));
      copied.values += content.values;
      copied.files += content.files;
      const created = await target.putObject({
        project,
        name,
        kind: read.kind,
        digest: read.digest,
        canonicalValue,
      });
      if (created.created) copied.objects += 1;
    }
    for (const label of await source.listObjectLabels(project, name)) {
      const before = (await target.listObjectLabels(project, name)).find((l) => l.label === label.label);
      if (before?.digest === label.digest) continue;
      await target.setObjectLabel(project, name, label.label, { digest: label.digest });
      copied.labels += 1;
    }
  }
  return copied;
}

async function copyTable(
  source: Storage,
  target: Storage,
  project: string,
  digest: string,
  copied: ObjectsCopied,
): Promise<void> {
  if ((await target.tableRowDigests(project, digest)) !== undefined) return;
  const rowDigests = await source.tableRowDigests(project, digest);
  if (rowDigests === undefined) return;
  for (let offset = 0; offset < rowDigests.length; offset += TABLE_ROWS_PER_READ) {
    const page = await source.readTableRows(project, digest, offset, TABLE_ROWS_PER_READ);
    const rows = (page?.rows ?? []).map((row) => ({
      digest: row.digest,
      canonicalValue: canonicalJson(row.value),
    }));
    const content = await copyContent(
      source,
      target,
      project,
      refsOf(...(page?.rows ?? []).map((r) => r.value)),
    );
    copied.values += content.values;
    copied.files += content.files;
    if (rows.length > 0) copied.tableRows += (await target.putTableRows(project, rows)).stored;
  }
  await target.putTable({ project, digest, rowDigests, rows: [] });
  copied.tables += 1;
}
