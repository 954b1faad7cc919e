// The peerbench sink's route for Weft (../shared/peerbench/sink-routes/weft.mjs
// loads $WEFT_DIR/bench/peerbench-sink-route.mjs when it exists): the
// built-in route decodes batch bodies with a bare msgpackr, which does not
// know the compact value marker (msgpack ext 0x57) the SDK writes, so it
// counted no call at all. This one decodes with @weft/protocol's decoder
// (the server's), built in this checkout. Same contract: match, rawBody,
// reply, count(headers, buf) → the ids of calls started and completed.
//
// It also answers the SDK's protocol probe (GET /version, once per client) as
// a current server does, so the SDK sends its compact bodies as they are; the
// sink's own /version answer has no protocolVersion, which an SDK reads as an
// old server (and would transcode every batch for). The reply carries both
// answers' fields: the route contract's reply does not see the path.
import { decodeMsgpack, PROTOCOL_VERSION } from '../packages/protocol/dist/index.js';

export default {
  match: (method, path) =>
    (method === 'POST' && /\/v1\/calls\/batch$/.test(path)) || (method === 'GET' && path === '/version'),
  rawBody: true,
  reply: () => ({ accepted: 0, version: '0.0.0-mock', protocolVersion: PROTOCOL_VERSION }),
  count: (_headers, buf) => {
    if (buf.byteLength === 0) return { completed: [], started: [] }; // the version probe
    const body = decodeMsgpack(buf);
    const completed = [];
    const started = [];
    for (const item of body.items ?? []) {
      if (item.type === 'start' || item.type === 'complete') started.push(item.id);
      if (item.type === 'end' || item.type === 'complete') completed.push(item.id);
    }
    return { completed, started };
  },
};
