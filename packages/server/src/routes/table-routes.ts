import {
  digestBytes,
  routes,
  tableAppend,
  tableByDigests,
  tableCreate,
  tableDigest,
  tableRowsKnown,
  tableRowsPut,
  tableRowsQuery,
} from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { digestParams, routePattern } from '../http/index.js';
import { DigestMismatchError, InvalidRequestError, NotFoundError } from '../errors/index.js';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';
import { canonicalOrReject } from './canonical-or-reject.js';

const parseCreate = validate(tableCreate, 'body');
const parseAppend = validate(tableAppend, 'body');
const parseKnown = validate(tableRowsKnown, 'body');
const parseRowsPut = validate(tableRowsPut, 'body');
const parseByDigests = validate(tableByDigests, 'body');
const parseDigestParams = validate(digestParams, 'params');
const parseRowsQuery = validate(tableRowsQuery, 'query');

/** Canonical text and digest of each row, in order. */
function hashRows(rows: readonly unknown[]): { digest: string; canonicalValue: string }[] {
  return rows.map((row, i) => {
    const canonicalValue = canonicalOrReject(row, `rows.${i}`);
    return { digest: digestBytes(canonicalValue), canonicalValue };
  });
}

/** Canonical text of rows sent with their digests; a digest that is not the row's is rejected by index. */
function verifyRows(
  rows: readonly { digest: string; value: unknown }[],
): { digest: string; canonicalValue: string }[] {
  return rows.map((row, i) => {
    const canonicalValue = canonicalOrReject(row.value, `rows.${i}.value`);
    const digest = digestBytes(canonicalValue);
    if (digest !== row.digest)
      throw new DigestMismatchError({ expected: digest, actual: row.digest, path: `rows.${i}.digest` });
    return { digest, canonicalValue };
  });
}

function checkDigest(claimed: string | undefined, computed: string): void {
  if (claimed !== undefined && claimed !== computed) {
    throw new DigestMismatchError({ expected: computed, actual: claimed });
  }
}

/** Immutable, content-addressed tables: create, append (a new table), read rows by page. */
export function registerTableRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.tableCreate(), async (request) => {
    const body = parseCreate(request.body);
    const rows = hashRows(body.rows);
    const rowDigests = rows.map((r) => r.digest);
    const digest = tableDigest(rowDigests);
    checkDigest(body.digest, digest);
    return storage.putTable({ project: body.project, digest, rowDigests, rows });
  });

  app.post(routes.tableAppend(), async (request) => {
    const body = parseAppend(request.body);
    const base = await storage.tableRowDigests(body.project, body.base);
    if (base === undefined)
      throw new NotFoundError(`No table ${body.base} in project ${body.project} to append to.`);
    const rows = hashRows(body.rows);
    const rowDigests = [...base, ...rows.map((r) => r.digest)];
    const digest = tableDigest(rowDigests);
    checkDigest(body.digest, digest);
    return storage.putTable({ project: body.project, digest, rowDigests, rows });
  });

  // Dedup for large uploads: ask which rows the project already has, send only the others
  // (in chunks under the body limit), then make the table from digests alone.
  app.post(routes.tableRowsKnown(), async (request) => {
    const body = parseKnown(request.body);
    return { known: await storage.knownTableRows(body.project, body.digests) };
  });

  app.post(routes.tableRowsPut(), async (request) => {
    const body = parseRowsPut(request.body);
    return storage.putTableRows(body.project, verifyRows(body.rows));
  });

  app.post(routes.tableByDigests(), async (request) => {
    const body = parseByDigests(request.body);
    const rows = verifyRows(body.rows);
    const digest = tableDigest(body.rowDigests);
    checkDigest(body.digest, digest);
    // Rows are never deleted, so a digest known now is still known when the table is written.
    const sent = new Set(rows.map((r) => r.digest));
    const asked = [...new Set(body.rowDigests.filter((d) => !sent.has(d)))];
    const known = new Set(await storage.knownTableRows(body.project, asked));
    const missing = body.rowDigests.findIndex((d) => !sent.has(d) && !known.has(d));
    if (missing !== -1) {
      const count = asked.length - known.size;
      throw new InvalidRequestError(
        [
          {
            path: `rowDigests.${missing}`,
            index: missing,
            message: `row ${body.rowDigests[missing]} is not stored in project ${body.project}${
              count > 1 ? ` (nor are ${count - 1} other rows)` : ''
            }; send its content in \`rows\` or upload it first with POST ${routes.tableRowsPut()}`,
          },
        ],
        'body',
      );
    }
    return storage.putTable({ project: body.project, digest, rowDigests: body.rowDigests, rows });
  });

  app.get(routePattern(routes.tableRows, 'project', 'digest'), async (request) => {
    const { project, digest } = parseDigestParams(request.params);
    const { offset, limit } = parseRowsQuery(request.query);
    const page = await storage.readTableRows(project, digest, offset, limit);
    if (page === undefined) throw new NotFoundError(`No table ${digest} in project ${project}.`);
    return page;
  });
}
