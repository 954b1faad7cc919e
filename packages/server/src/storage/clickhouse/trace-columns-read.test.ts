import { encodeMsgpack } from '@weft/protocol';
import { expect, it } from 'vitest';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { readTraceColumns } from './trace-columns-read.js';

const stored = (value: unknown) => Buffer.from(encodeMsgpack(value)).toString('base64');

/**
 * Two calls whose attributes differ but arrive under the same key (a
 * colliding hash, made here by the answer itself): the reader must not take
 * the second for the first.
 */
it('tells apart two values whose keys collide', async () => {
  const row = (id: string, attributes: unknown) =>
    [id, '', 'op', '0', '', '', '5', 'SAMEKEY', stored(attributes), '0', '0', 'running', '', '', '', ''].join(
      '\t',
    );
  const connection = {
    async tabSeparatedText() {
      return `${row('a', { user: 'alice' })}\n${row('b', { user: 'bob' })}\n${row('c', { user: 'alice' })}\n`;
    },
  } as unknown as ClickHouseConnection;
  const columns = await readTraceColumns(connection, 'weft.call_trace', 'p', 'a', 10);
  expect(columns.values).toEqual([{ user: 'alice' }, { user: 'bob' }]);
  expect(columns.attributes).toEqual([0, 1, 0]);
});
