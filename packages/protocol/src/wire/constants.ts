/** The port `weft serve` listens on unless told otherwise. */
export const DEFAULT_PORT = 7420;
/** The address the SDK and CLI use when neither an option nor `WEFT_URL` names one. */
export const DEFAULT_URL = `http://127.0.0.1:${DEFAULT_PORT}`;
/**
 * Bumped on any incompatible change to the schemas or the wire forms; the
 * server reports it at `GET /version`. 2: reads the compact value marker
 * (msgpack ext 0x57) and the compact call id (ext 0x55) in call batches; an
 * SDK sends these only to a server that reports 2 or more. 3: reads a value
 * item's `digest`/`prev` as msgpack ext 0x44 of the 32 raw bytes, and fills in
 * a complete record's `summary.latencyMs` left out where it is `endedAt −
 * startedAt` (`fillCompleteLatency`); an SDK sends these only to 3 or more.
 * 4: reads value items as msgpack ext 0x56 (plain) and 0x41 (array), and
 * fills in a complete or end record's `summary.status` left out where its
 * exception implies it (`fillImpliedSummary`); an SDK sends these only to 4 or
 * more.
 */
export const PROTOCOL_VERSION = 4;

export const CONTENT_TYPE_MSGPACK = 'application/msgpack';
export const CONTENT_TYPE_JSON = 'application/json';
/** Raw bytes: the body of a file upload and of a file read. */
export const CONTENT_TYPE_OCTET_STREAM = 'application/octet-stream';

/**
 * How evaluations are recorded as calls, so the runner, the CLI and the UI
 * read them the same way. A run is one call of `EVALUATE_OP` whose output is
 * an `EvaluationSummary`; each row (and trial) is a child call of
 * `PREDICT_AND_SCORE_OP` whose output is an `EvaluationRowResult`.
 */
export const EVALUATE_OP = 'Evaluation.evaluate';
export const PREDICT_AND_SCORE_OP = 'Evaluation.predict_and_score';
