import { describe, expect, it } from 'vitest';
import { rollupProjectionStatements } from './rollup-projection.js';
import { buildsProjectionsOnAggregates } from './schema-profile.js';

describe('the rollups projection by histogram (migration 9)', () => {
  it('is built only by servers that keep projections of an AggregatingMergeTree (24.8 and later)', () => {
    expect(['18.16.1', '23.8.2.7', '24.3.1', '24.7.9.1'].map(buildsProjectionsOnAggregates)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(['24.8.1.1', '25.3.2', '26.7.2.1'].map(buildsProjectionsOnAggregates)).toEqual([true, true, true]);
  });

  it('is added to the local table with merges that rebuild it, then materialized for the parts stored before', () => {
    const modern = { kind: 'modern', textIndex: 'text', projectionsOnAggregates: true } as const;
    const [setting, add, materialize] = rollupProjectionStatements('weft', 'c', modern);
    expect(setting).toBe(
      "ALTER TABLE weft.call_rollups_local MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild'",
    );
    expect(add).toContain('ADD PROJECTION IF NOT EXISTS by_hist');
    expect(add).toContain('ORDER BY (project, cut, op, level, hist, t,');
    expect(materialize).toBe('ALTER TABLE weft.call_rollups_local MATERIALIZE PROJECTION by_hist');
    expect(rollupProjectionStatements('weft', undefined, modern)[0]).toContain('weft.call_rollups MODIFY');
  });

  it('is left out on 18.16 and on modern servers before 24.8', () => {
    expect(rollupProjectionStatements('weft', undefined, { kind: 'legacy', textIndex: 'none' })).toEqual([]);
    expect(
      rollupProjectionStatements('weft', undefined, {
        kind: 'modern',
        textIndex: 'tokenbf_v1',
        projectionsOnAggregates: false,
      }),
    ).toEqual([]);
  });
});
