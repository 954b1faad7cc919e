export { arrayDigest, nextArrayDigest } from './array-digest.js';
export { MAX_CANONICAL_DEPTH, canonicalJson } from './canonical.js';
export { digestBytes, digestValue, tableDigest } from './digest.js';
