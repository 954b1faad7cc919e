import { describe, expect, it } from 'vitest';
import { href, parseRoute } from './route.js';

describe('route', () => {
  it('round-trips project, segments and query through a hash link', () => {
    const link = href('my.proj', ['objects', 'a b/c'], { v: 'v2', empty: '', none: undefined });
    expect(link).toBe('#/my.proj/objects/a%20b%2Fc?v=v2');
    const route = parseRoute(link);
    expect(route.project).toBe('my.proj');
    expect(route.segments).toEqual(['objects', 'a b/c']);
    expect(route.query.get('v')).toBe('v2');
    expect(route.query.has('empty')).toBe(false);
  });

  it('parses an empty hash as no project', () => {
    expect(parseRoute('').project).toBeUndefined();
    expect(parseRoute('#/').segments).toEqual([]);
  });
});
