/** Project names: letters, digits, `.`, `_`, `-`; 1–128 characters, not starting with punctuation. */
export const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Object and op names: like project names, up to 256 characters. */
export const OBJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/;
/** A digest: base64url (no padding) of a SHA-256, always 43 characters. */
export const DIGEST = /^[A-Za-z0-9_-]{43}$/;
/** Call ids: UUIDs (any version; the SDK mints v7). */
export const CALL_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
