export { FileUnreadableError, FileUploadFailedError, InvalidFileError } from './errors/index.js';
export { FileApi, type FileUploadResult } from './file-api.js';
export {
  FILE_CHANNEL,
  type FileEvent,
  FileStore,
  type FileStoreOptions,
  KNOWN_FILES_MAX,
} from './file-store.js';
export { HASH_SLICE_BYTES, hashBytes } from './hash-bytes.js';
export { DEFAULT_MIME_TYPE, detectImageType, detectMimeType, mimeTypeOfName } from './mime-type.js';
export { type FileInfo, type FileOptions, WeftFile } from './weft-file.js';
