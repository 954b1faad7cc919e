import { routes } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { routePattern } from './route-pattern.js';

describe('routePattern', () => {
  it('turns protocol path builders into Fastify patterns', () => {
    expect(routePattern(routes.call, 'project', 'id')).toBe('/v1/calls/:project/:id');
    expect(routePattern(routes.objectRead, 'project', 'name', 'version')).toBe(
      '/v1/objects/:project/:name/versions/:version',
    );
    expect(routePattern(routes.tableRows, 'project', 'digest')).toBe('/v1/tables/:project/:digest/rows');
  });
});
