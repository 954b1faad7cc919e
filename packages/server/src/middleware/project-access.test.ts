import { describe, expect, it } from 'vitest';
import { projectLocation } from './project-access.js';

describe('projectLocation', () => {
  it.each([
    ['GET', '/v1/calls/:project/:id', 'params'],
    ['POST', '/v1/files/:project', 'params'],
    ['GET', '/v1/tables/:project/:digest/rows', 'params'],
    ['POST', '/v1/calls/batch', 'body'],
    ['POST', '/v1/tables/rows/known', 'body'],
    ['GET', '/v1/anything', 'none'],
    ['GET', '/v1/projects/:projectId', 'none'],
  ] as const)('%s %s names its project in %s', (method, pattern, location) => {
    expect(projectLocation(method, pattern)).toBe(location);
  });
});
