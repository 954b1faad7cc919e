export { MAX_CANONICAL_DEPTH, canonicalJson } from './canonical.js';
export { digestBytes, digestValue, tableDigest } from './digest.js';
