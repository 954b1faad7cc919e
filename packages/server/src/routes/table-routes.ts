import { digestBytes, routes, tableAppend, tableCreate, tableDigest, tableRowsQuery } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { routePattern } from '../app/route-pattern.js';
import { DigestMismatchError } from '../errors/digest-mismatch-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { validate } from '../middleware/validate.js';
import type { Storage } from '../storage/storage.js';
import { canonicalOrReject } from './canonical-or-reject.js';
import { digestParams } from './params.js';

const parseCreate = validate(tableCreate, 'body');
const parseAppend = validate(tableAppend, 'body');
const parseDigestParams = validate(digestParams, 'params');
const parseRowsQuery = validate(tableRowsQuery, 'query');

/** Canonical text and digest of each row, in order. */
function hashRows(rows: readonly unknown[]): { digest: string; canonicalValue: string }[] {
  return rows.map((row, i) => {
    const canonicalValue = canonicalOrReject(row, `rows.${i}`);
    return { digest: digestBytes(canonicalValue), canonicalValue };
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
    if (base === undefined) throw new NotFoundError(`No table ${body.base} in project ${body.project} to append to.`);
    const rows = hashRows(body.rows);
    const rowDigests = [...base, ...rows.map((r) => r.digest)];
    const digest = tableDigest(rowDigests);
    checkDigest(body.digest, digest);
    return storage.putTable({ project: body.project, digest, rowDigests, rows });
  });

  app.get(routePattern(routes.tableRows, 'project', 'digest'), async (request) => {
    const { project, digest } = parseDigestParams(request.params);
    const { offset, limit } = parseRowsQuery(request.query);
    const page = await storage.readTableRows(project, digest, offset, limit);
    if (page === undefined) throw new NotFoundError(`No table ${digest} in project ${project}.`);
    return page;
  });
}
