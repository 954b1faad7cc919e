import {
  type Call,
  call as callSchema,
  formatRef,
  hasCode,
  isRefUri,
  LABEL_NAME,
  type ObjectLabel,
  objectLabel,
  objectRead,
  parseRef,
  routes,
} from '@weft/protocol';
import { InvalidOptionsError } from '../errors/index.js';
import { type DatasetHost, openDataset, type RemoteDataset } from '../datasets/index.js';
import type { FileApi, FileStore } from '../files/index.js';
import { type ObjectRef, type ObjectStore, parseNameSelector } from '../objects/index.js';
import { type CallPages, CallQueryPages, type GetCallsOptions } from '../read/index.js';
import type { ApiClient } from '../transport/index.js';

/** What {@link ClientReader} reads through: the client's API client and the stores whose uploads a read waits for. */
export interface ClientReaderParts {
  project: string;
  api: ApiClient;
  /** A read of a version this client is still uploading waits for it to be stored. */
  store: Pick<ObjectStore, 'whenStored'>;
  files: Pick<FileStore, 'whenStored'>;
  fileApi: FileApi;
  /** The client itself, as datasets see it: a table ref opens a {@link RemoteDataset} on it. */
  host: DatasetHost;
}

/**
 * The client's reads of the server: values by ref or name, labels, calls.
 * Reads never go through the batcher or the outbox; a read of something this
 * client is still uploading waits for that upload first.
 */
export class ClientReader {
  readonly #p: ClientReaderParts;

  constructor(parts: ClientReaderParts) {
    this.#p = parts;
  }

  /** See `WeftClient.get`. */
  async get(ref: string | ObjectRef): Promise<unknown> {
    const { api, project, files, fileApi, store, host } = this.#p;
    if (typeof ref === 'string' && !isRefUri(ref)) {
      // `Name`, `Name:latest`, `Name:v3`, `Name:production`, `Name:<digest>` in this client's project.
      const { name, version } = parseNameSelector(ref);
      return (await api.getJson(routes.objectRead(project, name, version), objectRead)).value;
    }
    const uri = typeof ref === 'string' ? ref : ref.uri;
    const parsed = parseRef(uri);
    let value: unknown;
    let path = parsed.path;
    switch (parsed.kind) {
      case 'file':
        if (path.length > 0)
          throw new InvalidOptionsError('ref', `get: a file ref has no path into it, got ${uri}.`);
        await files.whenStored(parsed.digest);
        return fileApi.read(parsed.project, parsed.digest);
      case 'table': {
        const table = formatRef({ ...parsed, path: [] });
        const view: RemoteDataset = await openDataset(table, { client: host });
        if (path.length === 0) return view;
        const [row, rowDigest, ...rest] = path;
        if (row !== 'row' || rowDigest === undefined) {
          throw new InvalidOptionsError(
            'ref',
            `get: a table ref's path must be /row/<row digest>, got ${uri}.`,
          );
        }
        try {
          const found = await view.rowByDigest(rowDigest);
          if (found === undefined)
            throw new InvalidOptionsError('ref', `get: table ${parsed.digest} has no row ${rowDigest}.`);
          value = found.value;
        } finally {
          await view.close();
        }
        path = rest;
        break;
      }
      case 'object':
      case 'op':
        // A version this client is still uploading is read once it is stored (or kept in the outbox).
        await store.whenStored(parsed.name, parsed.digest);
        value = (await api.getJson(routes.objectRead(parsed.project, parsed.name, parsed.digest), objectRead))
          .value;
        break;
      case 'call':
        value = await api.getJson(routes.call(parsed.project, parsed.id), callSchema);
        break;
    }
    for (const segment of path) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
    }
    return value;
  }

  /** See `WeftClient.setLabel`. */
  async setLabel(ref: string | ObjectRef, label: string): Promise<ObjectLabel> {
    const { api } = this.#p;
    if (typeof label !== 'string' || !LABEL_NAME.test(label)) {
      throw new InvalidOptionsError(
        'label',
        `setLabel: \`label\` must be 1–40 letters, digits, ".", "_" or "-", starting with a letter, and not "latest" or "v<N>", got ${JSON.stringify(label)}.`,
      );
    }
    let project = this.#p.project;
    let name: string;
    let digest: string;
    const uri = typeof ref === 'string' ? ref : ref.uri;
    if (isRefUri(uri)) {
      const parsed = parseRef(uri);
      if (parsed.kind !== 'object' && parsed.kind !== 'op') {
        throw new InvalidOptionsError(
          'ref',
          `setLabel: only object and op versions carry labels, got ${uri}.`,
        );
      }
      ({ project, name, digest } = parsed);
    } else {
      const selector = parseNameSelector(uri);
      name = selector.name;
      digest = (await api.getJson(routes.objectRead(project, name, selector.version), objectRead)).digest;
    }
    return api.postJson(routes.objectLabelSet(), { project, name, label, digest }, objectLabel);
  }

  /** See `WeftClient.getCalls`. */
  getCalls(options: GetCallsOptions = {}): CallPages {
    return new CallQueryPages(this.#p.api, this.#p.project, options);
  }

  /** See `WeftClient.getCall`. */
  async getCall(id: string): Promise<Call | undefined> {
    try {
      return await this.#p.api.getJson(routes.call(this.#p.project, id), callSchema);
    } catch (error) {
      if (hasCode(error, 'WEFT_NOT_FOUND')) return undefined;
      throw error;
    }
  }
}
