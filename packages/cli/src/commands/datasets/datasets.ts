import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { formatCount, formatTime } from '../../render/index.js';
import { listObjects, objectLabels, readObject, resolveProject } from '../../server-api/index.js';
import { type Column, writeRows } from '../output-format.js';
import type { DatasetsOptions } from './datasets-options.js';

/** A dataset as `weft datasets` lists it (and its `--json` shape). */
export interface DatasetRow {
  name: string;
  /** Latest version number. */
  version: number;
  digest: string;
  rowCount: number;
  /** Labels of any version, with the version each points at. */
  labels: { label: string; version: number }[];
  updatedAt: number;
  /** The latest version's ref (`weft:///project/object/name:digest`). */
  ref: string;
}

/** Objects read at once while telling datasets from other objects. */
const READS_AT_ONCE = 8;

const COLUMNS: readonly Column<DatasetRow>[] = [
  { title: 'dataset', cell: (d) => d.name },
  { title: 'version', cell: (d) => `v${d.version}`, raw: (d) => d.version },
  { title: 'rows', cell: (d) => formatCount(d.rowCount), raw: (d) => d.rowCount },
  { title: 'labels', cell: (d) => d.labels.map((l) => `${l.label}→v${l.version}`).join(' ') },
  {
    title: 'updated (UTC)',
    cell: (d) => formatTime(d.updatedAt),
    raw: (d) => new Date(d.updatedAt).toISOString(),
  },
];

/**
 * `weft datasets`: the project's objects whose latest version is a dataset
 * (`{ rows: <table ref>, rowCount }`, what `Dataset.publish` and
 * add-to-dataset write), with their labels.
 */
export async function datasets(options: DatasetsOptions, io: CliIo): Promise<number> {
  const target = { url: options.url, token: options.token };
  const project = await resolveProject(target, options.project);
  const objects = (await listObjects(target, project)).filter((o) => o.kind === 'object');
  const rows: DatasetRow[] = [];
  for (let i = 0; i < objects.length; i += READS_AT_ONCE) {
    const read = await Promise.all(
      objects.slice(i, i + READS_AT_ONCE).map(async (o): Promise<DatasetRow | undefined> => {
        const latest = await readObject(target, project, o.name, 'latest');
        const value = latest.value as { rows?: unknown; rowCount?: unknown } | null;
        if (
          typeof value?.rows !== 'string' ||
          !value.rows.includes('/table/') ||
          typeof value.rowCount !== 'number'
        ) {
          return undefined;
        }
        const labels = await objectLabels(target, project, o.name);
        return {
          name: o.name,
          version: latest.version,
          digest: latest.digest,
          rowCount: value.rowCount,
          labels: labels.map((l) => ({ label: l.label, version: l.version })),
          updatedAt: o.updatedAt,
          ref: latest.ref,
        };
      }),
    );
    rows.push(...read.filter((r): r is DatasetRow => r !== undefined));
  }
  rows.sort((a, b) => a.name.localeCompare(b.name));
  if (rows.length === 0 && options.format === 'table') {
    io.stdout.write(`No datasets in project ${project}.\n`);
    return ExitCode.ok;
  }
  writeRows(io, options.format, COLUMNS, rows, () => rows);
  return ExitCode.ok;
}
