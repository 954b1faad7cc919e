import { datasetFromCalls, digestBytes, formatRef, routes, tableDigest } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors/index.js';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';
import { expandCallValues } from '../values/index.js';
import { canonicalOrReject } from './canonical-or-reject.js';

const parseFromCalls = validate(datasetFromCalls, 'body');

/** Dataset versions made on the server from stored calls ("add to dataset" in the UI). */
export function registerDatasetRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.datasetFromCalls(), async (request) => {
    const { project, name, callIds, append } = parseFromCalls(request.body);
    const rows = [];
    const newColumns: string[] = [];
    for (const [i, id] of callIds.entries()) {
      const stored = await storage.readCall(project, id);
      if (stored === undefined)
        throw new NotFoundError(`No call ${id} (callIds.${i}) in project ${project}.`);
      const [call] = await expandCallValues(storage, [stored]);
      const sourceCall = formatRef({ kind: 'call', project, id, path: [] });
      // The row `Dataset.fromCalls` makes by default.
      const row = { ...call!.inputs, expected: call!.output, sourceCall };
      newColumns.push(...Object.keys(row));
      const canonicalValue = canonicalOrReject(row, `callIds.${i}`);
      rows.push({ digest: digestBytes(canonicalValue), canonicalValue });
    }
    const before = append ? await previousVersion(storage, project, name) : { rowDigests: [], columns: [] };
    const rowDigests = [...before.rowDigests, ...rows.map((r) => r.digest)];
    // The columns in the order a reader expects: the dataset's own, then the new rows' keys.
    const columns = [...new Set([...before.columns, ...newColumns])];
    const digest = tableDigest(rowDigests);
    await storage.putTableRows(project, rows);
    await storage.putTable({ project, digest, rowDigests, rows: [] });
    const value = {
      rows: formatRef({ kind: 'table', project, digest, path: [] }),
      rowCount: rowDigests.length,
      columns,
    };
    const canonicalValue = canonicalOrReject(value, 'value');
    const created = await storage.putObject({
      project,
      name,
      kind: 'object',
      digest: digestBytes(canonicalValue),
      canonicalValue,
    });
    return { ...created, rowCount: rowDigests.length };
  });
}

/** Row digests and columns of the latest version of dataset `name`, or none when there is no such dataset. */
async function previousVersion(
  storage: Storage,
  project: string,
  name: string,
): Promise<{ rowDigests: string[]; columns: string[] }> {
  const latest = await storage.readObject(project, name, { latest: true });
  const value = latest?.value as { rows?: unknown; columns?: unknown } | undefined;
  const columns = Array.isArray(value?.columns)
    ? value.columns.filter((c): c is string => typeof c === 'string')
    : [];
  const rowsRef = value?.rows;
  if (typeof rowsRef !== 'string') return { rowDigests: [], columns };
  const tableDigestOfRef = rowsRef.slice(rowsRef.lastIndexOf('/') + 1);
  return { rowDigests: (await storage.tableRowDigests(project, tableDigestOfRef)) ?? [], columns };
}
