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
    for (const [i, id] of callIds.entries()) {
      const stored = await storage.readCall(project, id);
      if (stored === undefined)
        throw new NotFoundError(`No call ${id} (callIds.${i}) in project ${project}.`);
      const [call] = await expandCallValues(storage, [stored]);
      const sourceCall = formatRef({ kind: 'call', project, id, path: [] });
      // The row `Dataset.fromCalls` makes by default.
      const canonicalValue = canonicalOrReject(
        { ...call!.inputs, expected: call!.output, sourceCall },
        `callIds.${i}`,
      );
      rows.push({ digest: digestBytes(canonicalValue), canonicalValue });
    }
    const before = append ? await previousRowDigests(storage, project, name) : [];
    const rowDigests = [...before, ...rows.map((r) => r.digest)];
    const digest = tableDigest(rowDigests);
    await storage.putTableRows(project, rows);
    await storage.putTable({ project, digest, rowDigests, rows: [] });
    const value = {
      rows: formatRef({ kind: 'table', project, digest, path: [] }),
      rowCount: rowDigests.length,
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

/** Row digests of the latest version of dataset `name`, or none when there is no such dataset. */
async function previousRowDigests(storage: Storage, project: string, name: string): Promise<string[]> {
  const latest = await storage.readObject(project, name, { latest: true });
  const rowsRef = (latest?.value as { rows?: unknown } | undefined)?.rows;
  if (typeof rowsRef !== 'string') return [];
  const tableDigestOfRef = rowsRef.slice(rowsRef.lastIndexOf('/') + 1);
  return (await storage.tableRowDigests(project, tableDigestOfRef)) ?? [];
}
