import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodeTraceRequest } from './otlp-codec.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';
import { spansOfOtlp } from './otlp-spans.js';

/** The request type as the official definitions give it (AnyValue's `value` oneof included), to encode with. */
const OfficialRequest = protobuf.Root.fromJSON(OTLP_DESCRIPTOR)
  .resolveAll()
  .lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

describe('decodeTraceRequest', () => {
  it('reads every AnyValue member, zero values included, as an encoder with the oneof writes them', () => {
    const attributes = [
      { key: 'text', value: { stringValue: 'hello' } },
      { key: 'empty', value: { stringValue: '' } },
      { key: 'yes', value: { boolValue: true } },
      { key: 'no', value: { boolValue: false } },
      { key: 'count', value: { intValue: 42 } },
      { key: 'zero', value: { intValue: 0 } },
      { key: 'ratio', value: { doubleValue: 0.5 } },
      { key: 'nought', value: { doubleValue: 0 } },
      { key: 'raw', value: { bytesValue: Uint8Array.from([0, 1, 255]) } },
      {
        key: 'list',
        value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 0 }, { boolValue: false }] } },
      },
      {
        key: 'map',
        value: { kvlistValue: { values: [{ key: 'inner', value: { stringValue: '' } }] } },
      },
      { key: 'unset', value: {} },
    ];
    const bytes = OfficialRequest.encode(
      OfficialRequest.fromObject({
        resourceSpans: [
          {
            resource: { attributes: [] },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: Uint8Array.from({ length: 16 }, (_, i) => i + 1),
                    spanId: Uint8Array.from({ length: 8 }, (_, i) => i + 1),
                    name: 'chat',
                    attributes,
                  },
                ],
              },
            ],
          },
        ],
      }),
    ).finish();

    const [resourceSpans] = spansOfOtlp(decodeTraceRequest(bytes));

    expect(resourceSpans?.spans[0]?.attributes).toEqual({
      text: 'hello',
      empty: '',
      yes: true,
      no: false,
      count: 42,
      zero: 0,
      ratio: 0.5,
      nought: 0,
      raw: 'AAH/',
      list: ['a', 0, false],
      map: { inner: '' },
      unset: null,
    });
  });
});
