import { PROJECT_NAME } from '@weft/protocol';
import type { OtelResource } from '@weft/protocol';
import { InvalidRequestError } from '../errors/index.js';

/** The request header that names the project of every span in the request. */
export const PROJECT_HEADER = 'x-weft-project';
/** The resource attribute that names the project of its spans. */
export const PROJECT_ATTRIBUTE = 'weft.project';

/** Where the spans of one resource go, or why they cannot go anywhere. */
export type TraceProject = { project: string } | { problem: string };

/**
 * The project named by the `x-weft-project` header, validated (a bad one
 * is a 400 for the whole request), or `undefined` when absent.
 */
export function headerProject(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = Array.isArray(value) ? value[0] : value;
  if (name !== undefined && PROJECT_NAME.test(name)) return name;
  throw new InvalidRequestError(
    [
      {
        path: `headers.${PROJECT_HEADER}`,
        message: 'must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit',
      },
    ],
    'request',
  );
}

/**
 * The project of a resource's spans when no header names one: the
 * `weft.project` resource attribute as given (it must be a valid project
 * name), else `service.name` made into one (other characters become `-`:
 * the OTel SDK's default `unknown_service:node` lands in `unknown_service-node`).
 */
export function projectOfResource(resource: OtelResource): TraceProject {
  const explicit = resource.attributes[PROJECT_ATTRIBUTE];
  if (explicit !== undefined && explicit !== null) {
    return typeof explicit === 'string' && PROJECT_NAME.test(explicit)
      ? { project: explicit }
      : {
          problem: `resource attribute ${PROJECT_ATTRIBUTE}=${JSON.stringify(explicit).slice(0, 140)} is not a valid project name`,
        };
  }
  const service = resource.attributes['service.name'];
  const project =
    typeof service === 'string'
      ? service
          .replace(/[^A-Za-z0-9._-]/g, '-')
          .replace(/^[^A-Za-z0-9]+/, '')
          .slice(0, 128)
      : '';
  return project === ''
    ? {
        problem: `no project: send the ${PROJECT_HEADER} header or set the ${PROJECT_ATTRIBUTE} or service.name resource attribute`,
      }
    : { project };
}

/**
 * The resource as the calls of its spans keep it (`otel.resource`): without
 * `weft.project`, which is an instruction to this server (where to store the
 * spans), not a fact about the app, and whose value is the calls' own
 * project whenever it routed them. Kept, it was a filterable attribute term
 * on every span that matches every call of its project: 1 of a GenAI span's
 * 8 terms, ~5% of the storage CPU of SQLite span ingest
 * (`bench/ingest-otlp-parts.mjs`).
 */
export function resourceOfCalls(resource: OtelResource): OtelResource {
  if (!Object.hasOwn(resource.attributes, PROJECT_ATTRIBUTE)) return resource;
  const { [PROJECT_ATTRIBUTE]: _routing, ...attributes } = resource.attributes;
  return { attributes };
}
