import { digestBytes, objectCreate, objectLabelSet, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { objectParams, objectVersionParams, projectParams, routePattern } from '../http/index.js';
import { DigestMismatchError, NotFoundError } from '../errors/index.js';
import { validate } from '../middleware/index.js';
import type { Storage, VersionSelector } from '../storage/index.js';
import { canonicalOrReject } from './canonical-or-reject.js';

const parseCreate = validate(objectCreate, 'body');
const parseProject = validate(projectParams, 'params');
const parseObject = validate(objectParams, 'params');
const parseObjectVersion = validate(objectVersionParams, 'params');
const parseLabelSet = validate(objectLabelSet, 'body');

function selectorOf(version: string): VersionSelector {
  if (version === 'latest') return { latest: true };
  if (/^v\d+$/.test(version)) return { version: Number(version.slice(1)) };
  // Labels are at most 40 characters and digests always 43.
  if (version.length < 43) return { label: version };
  return { digest: version };
}

/** Versioned objects: create (digest verified), read by digest/latest/vN/label, list versions, names and labels, set labels. */
export function registerObjectRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.objectCreate(), async (request) => {
    const body = parseCreate(request.body);
    const canonicalValue = canonicalOrReject(body.value, 'value');
    const computed = digestBytes(canonicalValue);
    if (computed !== body.digest) throw new DigestMismatchError({ expected: computed, actual: body.digest });
    return storage.putObject({
      project: body.project,
      name: body.name,
      kind: body.kind,
      digest: computed,
      canonicalValue,
    });
  });

  app.get(routePattern(routes.objectList, 'project'), async (request) => {
    const { project } = parseProject(request.params);
    return { objects: await storage.listObjects(project) };
  });

  app.get(routePattern(routes.objectVersions, 'project', 'name'), async (request) => {
    const { project, name } = parseObject(request.params);
    const versions = await storage.listObjectVersions(project, name);
    if (versions.length === 0) throw new NotFoundError(`No object named ${name} in project ${project}.`);
    return { versions };
  });

  app.post(routes.objectLabelSet(), async (request) => {
    const body = parseLabelSet(request.body);
    const version = body.digest !== undefined ? { digest: body.digest } : { version: body.version as number };
    const label = await storage.setObjectLabel(body.project, body.name, body.label, version);
    if (label === undefined) {
      const which = body.digest ?? `v${body.version}`;
      throw new NotFoundError(
        `No version ${which} of object ${body.name} in project ${body.project} to label ${body.label}.`,
      );
    }
    return label;
  });

  app.get(routePattern(routes.objectLabels, 'project', 'name'), async (request) => {
    const { project, name } = parseObject(request.params);
    return { labels: await storage.listObjectLabels(project, name) };
  });

  app.get(routePattern(routes.objectRead, 'project', 'name', 'version'), async (request) => {
    const { project, name, version } = parseObjectVersion(request.params);
    const object = await storage.readObject(project, name, selectorOf(version));
    if (object === undefined)
      throw new NotFoundError(`No version ${version} of object ${name} in project ${project}.`);
    return object;
  });
}
