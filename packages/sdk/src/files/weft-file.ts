import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { asBinary } from '../values/index.js';
import { FileUnreadableError, InvalidFileError } from './errors/index.js';
import { detectMimeType } from './mime-type.js';

const BRAND = Symbol.for('weft.file');
const MIME_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i;

/** Options of {@link WeftFile.fromBytes} and {@link WeftFile.fromPath}. */
export interface FileOptions {
  /** The media type, e.g. `image/png`. @default detected from the bytes (PNG, JPEG, GIF, WebP), else from the name's extension, else `application/octet-stream` */
  mimeType?: string;
  /** A display name. @default the path's base name for `fromPath`, none for `fromBytes` */
  name?: string;
}

/** What a call records for a `weft.WeftFile`: a `File` object version with this value. */
export interface FileInfo {
  /** `weft:///<project>/file/<digest>`: `weft.get` of it gives the bytes. */
  file: string;
  mimeType: string;
  /** Bytes. */
  size: number;
  name?: string;
}

/**
 * A file for a call to record by content: an image, a PDF, audio. A call
 * whose inputs or output hold one records a `File` object version
 * `{ file: <file ref>, mimeType, size, name }`; the bytes are stored once
 * per content. A file given by path is read when the call is recorded, off
 * the caller's turn, not when `fromPath` is called.
 *
 * @example
 * const chart = weft.WeftFile.fromPath('chart.png'); // mimeType image/png
 * const audio = weft.WeftFile.fromBytes(buffer, { mimeType: 'audio/wav', name: 'take-1.wav' });
 */
export class WeftFile {
  /** The display name, when known. */
  readonly name: string | undefined;
  /** The path it is read from (`fromPath`), else undefined. */
  readonly path: string | undefined;
  readonly #mimeType: string | undefined;
  readonly #bytes: Uint8Array | undefined;

  private constructor(path: string | undefined, bytes: Uint8Array | undefined, options: FileOptions) {
    if (
      options.mimeType !== undefined &&
      (typeof options.mimeType !== 'string' || !MIME_TYPE.test(options.mimeType))
    ) {
      throw new InvalidFileError(
        'mimeType',
        `must look like "type/subtype", got ${JSON.stringify(options.mimeType)}`,
      );
    }
    if (options.name !== undefined && (typeof options.name !== 'string' || options.name.length === 0)) {
      throw new InvalidFileError('name', `must be a non-empty string, got ${JSON.stringify(options.name)}`);
    }
    this.path = path;
    this.name = options.name ?? (path === undefined ? undefined : basename(path));
    this.#mimeType = options.mimeType;
    this.#bytes = bytes;
  }

  /**
   * A file on disk, read when a call records it (so creating one is free).
   * @throws {InvalidFileError} `path` is not a non-empty string, or a bad option.
   */
  static fromPath(path: string, options: FileOptions = {}): WeftFile {
    if (typeof path !== 'string' || path.length === 0) {
      throw new InvalidFileError('path', `must be a non-empty string, got ${JSON.stringify(path)}`);
    }
    return new WeftFile(path, undefined, options ?? {});
  }

  /**
   * Bytes in memory: a Buffer, a typed array, a DataView or an ArrayBuffer.
   * They are not copied: do not change them until the call is recorded.
   * @throws {InvalidFileError} `bytes` is not binary data, or a bad option.
   */
  static fromBytes(
    bytes: Uint8Array | ArrayBufferView | ArrayBufferLike,
    options: FileOptions = {},
  ): WeftFile {
    const binary = typeof bytes === 'object' && bytes !== null ? asBinary(bytes) : undefined;
    if (binary === undefined) {
      throw new InvalidFileError(
        'bytes',
        `must be a Buffer, a typed array, a DataView or an ArrayBuffer, got ${typeof bytes}`,
      );
    }
    return new WeftFile(undefined, binary.bytes, options ?? {});
  }

  /** True for any `WeftFile`, whichever copy of the package created it. */
  static isInstance(value: unknown): value is WeftFile {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /**
   * The bytes: the ones given, or the file's contents read now.
   * @throws {FileUnreadableError} the path cannot be read.
   */
  async bytes(): Promise<Uint8Array> {
    if (this.#bytes !== undefined) return this.#bytes;
    const path = this.path as string;
    try {
      const buffer = await readFile(path);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      throw new FileUnreadableError(path, error);
    }
  }

  /** The media type given, else the one the bytes or the name suggest. */
  mimeTypeOf(bytes: Uint8Array): string {
    return this.#mimeType ?? detectMimeType(bytes, this.name);
  }
}

// On the prototype: recognized by brand, not by `instanceof`, across copies of the package.
Object.defineProperty(WeftFile.prototype, BRAND, { value: true });
