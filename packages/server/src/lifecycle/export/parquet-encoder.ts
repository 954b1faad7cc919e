import type { Call } from '@weft/protocol';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';

/**
 * One Parquet column: its name, its type (hyparquet-writer's basic types:
 * `STRING`, `DOUBLE`, `JSON` — UTF-8 JSON text) and how a call fills it.
 * Times are milliseconds since 1970 as DOUBLE, exactly as the API gives
 * them (fractions included); JSON columns hold the values as the read API
 * answers them.
 */
interface CallColumn {
  name: string;
  type: 'STRING' | 'DOUBLE' | 'JSON';
  value(call: Call): unknown;
}

/** The columns of an exported call, in file order (docs/operations.md lists them). */
export const CALL_COLUMNS: readonly CallColumn[] = [
  { name: 'project', type: 'STRING', value: (c) => c.project },
  { name: 'id', type: 'STRING', value: (c) => c.id },
  { name: 'trace_id', type: 'STRING', value: (c) => c.traceId },
  { name: 'parent_id', type: 'STRING', value: (c) => c.parentId },
  { name: 'op_name', type: 'STRING', value: (c) => c.opName },
  { name: 'display_name', type: 'STRING', value: (c) => c.displayName ?? null },
  { name: 'started_at_ms', type: 'DOUBLE', value: (c) => c.startedAt },
  { name: 'ended_at_ms', type: 'DOUBLE', value: (c) => c.endedAt },
  { name: 'status', type: 'STRING', value: (c) => c.status },
  { name: 'session_id', type: 'STRING', value: (c) => c.sessionId ?? null },
  { name: 'inputs', type: 'JSON', value: (c) => c.inputs },
  { name: 'output', type: 'JSON', value: (c) => c.output ?? null },
  { name: 'exception', type: 'JSON', value: (c) => c.exception ?? null },
  { name: 'summary', type: 'JSON', value: (c) => c.summary ?? null },
  { name: 'attributes', type: 'JSON', value: (c) => c.attributes },
  { name: 'feedback', type: 'JSON', value: (c) => c.feedback ?? [] },
];

/**
 * A `ByteWriter` whose bytes are taken after each row group (`take`), so
 * the file streams out instead of growing in memory: hyparquet-writer
 * keeps only the offsets and the small per-chunk metadata it writes in
 * the footer.
 */
class TakenByteWriter extends ByteWriter {
  /** The bytes written since the last take (a copy: the buffer is reused). */
  take(): Uint8Array {
    const bytes = this.getBytes().slice();
    this.index = 0;
    return bytes;
  }
}

/**
 * The calls as one Parquet file (hyparquet-writer, Snappy): one row group
 * per page of calls, streamed as each is written. A JSON `null` for an
 * absent value (a running call's output).
 */
export async function* parquetChunks(pages: AsyncIterable<Call[]>): AsyncGenerator<Uint8Array> {
  const writer = new TakenByteWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: [
      { name: 'root', num_children: CALL_COLUMNS.length },
      ...CALL_COLUMNS.map((column) => schemaElement(column)),
    ],
    createdBy: 'weft',
  });
  yield writer.take();
  for await (const calls of pages) {
    await parquet.write({
      columnData: CALL_COLUMNS.map((column) => ({ name: column.name, data: calls.map(column.value) })),
      rowGroupSize: calls.length,
    });
    yield writer.take();
  }
  await parquet.finish();
  yield writer.take();
}

function schemaElement(column: CallColumn) {
  const repetition_type = 'OPTIONAL' as const;
  switch (column.type) {
    case 'STRING':
      return {
        name: column.name,
        type: 'BYTE_ARRAY' as const,
        converted_type: 'UTF8' as const,
        repetition_type,
      };
    case 'JSON':
      return {
        name: column.name,
        type: 'BYTE_ARRAY' as const,
        converted_type: 'JSON' as const,
        repetition_type,
      };
    case 'DOUBLE':
      return { name: column.name, type: 'DOUBLE' as const, repetition_type };
  }
}
