import type { Call, ExportFormat } from '@weft/protocol';
import type { Storage } from '../../storage/index.js';
import { type ExportSource, exportPages } from './export-pages.js';
import { jsonlChunks } from './jsonl-encoder.js';
import { parquetChunks } from './parquet-encoder.js';

/** The media type of each export format. */
export const EXPORT_CONTENT_TYPE: Readonly<Record<ExportFormat, string>> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

/** The file name extension of each export format. */
export const EXPORT_EXTENSION: Readonly<Record<ExportFormat, string>> = {
  jsonl: 'jsonl',
  parquet: 'parquet',
};

/** An export's bytes, in the chunks the encoder makes them: pulled one page of calls at a time. */
export function encodeCalls(pages: AsyncIterable<Call[]>, format: ExportFormat): AsyncGenerator<Uint8Array> {
  return format === 'parquet' ? parquetChunks(pages) : jsonlChunks(pages);
}

/** The calls a query selects, encoded as `format` and streamed (see `exportPages`). */
export function exportCalls(
  storage: Storage,
  source: ExportSource,
  format: ExportFormat,
): AsyncGenerator<Uint8Array> {
  return encodeCalls(exportPages(storage, source), format);
}
