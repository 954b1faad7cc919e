import { describe, expect, it } from 'vitest';
import { TokenRegistry } from './token-registry.js';

describe('TokenRegistry', () => {
  const registry = new TokenRegistry({
    adminToken: 'admin-token',
    projectTokens: { 'token-a': ['projA'], 'token-ab': ['projA', 'projB'], 'admin-token': ['projA'] },
  });

  it('gives the admin token every project, even when also listed as a project token', () => {
    expect(registry.scopeOf('admin-token')).toEqual({ kind: 'all' });
  });

  it('gives a project token exactly its projects', () => {
    const a = registry.scopeOf('token-a');
    const ab = registry.scopeOf('token-ab');
    expect(a?.kind === 'projects' && [...a.projects]).toEqual(['projA']);
    expect(ab?.kind === 'projects' && [...ab.projects].sort()).toEqual(['projA', 'projB']);
  });

  it('refuses prefixes, extensions, case changes and the empty string', () => {
    for (const presented of [
      'token-',
      'token-a ',
      'token-abc',
      'TOKEN-A',
      'admin-toke',
      '',
      'token-a\u0000',
    ]) {
      expect(registry.scopeOf(presented)).toBeUndefined();
    }
  });

  it('is empty without tokens', () => {
    expect(new TokenRegistry({}).isEmpty).toBe(true);
    expect(registry.size).toBe(3);
  });
});
