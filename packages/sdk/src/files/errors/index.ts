export { FileUnreadableError } from './file-unreadable-error.js';
export { FileUploadFailedError } from './file-upload-failed-error.js';
export { InvalidFileError } from './invalid-file-error.js';
