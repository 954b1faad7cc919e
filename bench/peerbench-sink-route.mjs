// The peerbench sink's route for Weft (../shared/peerbench/sink-routes/weft.mjs
// loads $WEFT_DIR/bench/peerbench-sink-route.mjs when it exists): the
// built-in route decodes batch bodies with a bare msgpackr, which does not
// know the compact value marker (msgpack ext 0x57) the SDK writes, so it
// counted no call at all. This one decodes with @weft/protocol's decoder
// (the server's), built in this checkout. Same contract: match, rawBody,
// reply, count(headers, buf) → the ids of calls started and completed.
import { decodeMsgpack } from '../packages/protocol/dist/index.js';

export default {
  match: (method, path) => method === 'POST' && /\/v1\/calls\/batch$/.test(path),
  rawBody: true,
  reply: () => ({ accepted: 0 }),
  count: (_headers, buf) => {
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
