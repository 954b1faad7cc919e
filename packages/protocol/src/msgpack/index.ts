export { decodeMsgpack, encodeMsgpack } from './msgpack-codec.js';
export {
  msgpackArrayHeader,
  msgpackBinHeader,
  msgpackExtHeader,
  msgpackStrHeader,
} from './msgpack-headers.js';
export { type MsgpackHeader, MsgpackKind, readMsgpackHeader, skipMsgpackValue } from './msgpack-layout.js';
export { MsgpackWriter } from './msgpack-writer.js';
export { countMsgpackNodes, type MsgpackNodeCount, type MsgpackNodeCountOptions } from './msgpack-nodes.js';
export {
  CALL_ID_EXT_TYPE,
  COMPACT_CALL_ID_BYTES,
  callIdOfPayload,
  writeCompactCallId,
} from './compact-call-id.js';
