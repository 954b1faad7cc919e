import type { WeftErrorCode } from '@weft/protocol';

/** HTTP status of each error code the server answers with; anything else is a 500. */
export const ERROR_STATUS: Readonly<Partial<Record<WeftErrorCode, number>>> = {
  WEFT_INVALID_REQUEST: 400,
  WEFT_DIGEST_MISMATCH: 400,
  WEFT_NOT_CANONICAL: 400,
  WEFT_INVALID_REF: 400,
  WEFT_UNAUTHORIZED: 401,
  WEFT_FORBIDDEN: 403,
  WEFT_ADMIN_REQUIRED: 403,
  WEFT_HOST_NOT_ALLOWED: 403,
  WEFT_CROSS_SITE_REQUEST: 403,
  WEFT_NOT_FOUND: 404,
  WEFT_METHOD_NOT_ALLOWED: 405,
  WEFT_PAYLOAD_TOO_LARGE: 413,
  WEFT_TOO_MANY_VALUES: 413,
  WEFT_UNSUPPORTED_MEDIA_TYPE: 415,
  WEFT_STORAGE_CLOSED: 503,
  WEFT_STORAGE_UNAVAILABLE: 503,
  WEFT_STORAGE_FULL: 503,
  WEFT_OVERLOADED: 503,
};

/** Code for framework errors that carry only a 4xx status (malformed JSON, bad media type, …). */
export function codeForStatus(status: number): WeftErrorCode {
  switch (status) {
    case 404:
      return 'WEFT_NOT_FOUND';
    case 408:
      return 'WEFT_REQUEST_TIMEOUT';
    case 413:
      return 'WEFT_PAYLOAD_TOO_LARGE';
    case 415:
      return 'WEFT_UNSUPPORTED_MEDIA_TYPE';
    case 431:
      return 'WEFT_HEADERS_TOO_LARGE';
    default:
      return 'WEFT_INVALID_REQUEST';
  }
}
