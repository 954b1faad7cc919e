export { type NameSelector, parseNameSelector } from './name-selector.js';
export type { ObjectRef } from './object-ref.js';
export { KNOWN_DIGESTS_MAX, ObjectStore, type ObjectStoreOptions, type SavedObject } from './object-store.js';
export { objectNameOf, toObjectName, WeftObject } from './weft-object.js';
