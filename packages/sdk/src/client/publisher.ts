import { OBJECT_NAME, parseRef } from '@weft/protocol';
import { InvalidOptionsError, PublishFailedError } from '../errors/index.js';
import { Dataset, type DatasetHost } from '../datasets/index.js';
import { type FileStore, WeftFile } from '../files/index.js';
import { objectNameOf, type ObjectRef, type ObjectStore, WeftObject } from '../objects/index.js';
import type { FlushBarrier } from '../pipeline/index.js';
import type { SnapshotRules } from './snapshot-rules.js';

/** What {@link Publisher} works with: the client's object and file stores, its barrier and snapshot rules. */
export interface PublisherParts {
  project: string;
  store: ObjectStore;
  files: FileStore;
  barrier: FlushBarrier;
  snapshot: SnapshotRules;
  /** The client itself, as datasets see it: a `Dataset` publishes through it. */
  host: DatasetHost;
}

/**
 * `publish`: a value saved as an object version, a `Dataset` as its table and
 * version, a `WeftFile` as its bytes and a `File` version. The version travels
 * like every other record (flush() waits for it; the outbox keeps it while the
 * server is down), so publish never waits for the server.
 */
export class Publisher {
  readonly #p: PublisherParts;

  constructor(parts: PublisherParts) {
    this.#p = parts;
  }

  /** See `WeftClient.publish`. */
  async publish(value: unknown, options: { name?: string } = {}): Promise<ObjectRef> {
    const { store, files, barrier, snapshot, host } = this.#p;
    if (value instanceof Dataset) {
      if (options.name !== undefined && options.name !== value.name) {
        throw new InvalidOptionsError(
          'name',
          `publish: a Dataset is published under its own name "${value.name}", got ${JSON.stringify(options.name)}.`,
        );
      }
      return (await value.publish({ client: host })).ref;
    }
    if (WeftFile.isInstance(value)) {
      // Its bytes as a file, then `{ file, mimeType, size, name }` as the object version.
      return this.publish(await files.saveFile(value, barrier.current), { name: options.name ?? 'File' });
    }
    const isObject = WeftObject.isInstance(value);
    const name = options.name ?? (isObject ? objectNameOf(value as object) : undefined);
    if (name === undefined || !OBJECT_NAME.test(name)) {
      throw new InvalidOptionsError(
        'name',
        `publish: \`name\` must be 1–256 letters, digits, ".", "_" or "-", starting with a letter or digit, got ${JSON.stringify(name)}.`,
      );
    }
    const fields = isObject ? { ...(value as object) } : value;
    // The ref is known once the digest is.
    const saved = store.save(fields, name, barrier.current);
    const uri = await saved.ref.catch(() => undefined);
    if (uri === undefined) throw new PublishFailedError(name);
    const ref: ObjectRef = { uri, project: this.#p.project, name, digest: digestOf(uri) };
    store.remember(value, ref.uri);
    if (store.hasPublished) snapshot.keepPublished(store.isPublished);
    return ref;
  }
}

/** The digest of an object ref URI (`…/object/<name>:<digest>`). */
function digestOf(uri: string): string {
  const parsed = parseRef(uri);
  return parsed.kind === 'object' || parsed.kind === 'op' ? parsed.digest : '';
}
