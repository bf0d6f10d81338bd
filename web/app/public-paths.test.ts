import { describe, expect, it } from 'vitest';
import { isPublicPath, PUBLIC_PATHS } from './public-paths';

describe('isPublicPath', () => {
  it('knows each public page, an article by its slug included', () => {
    for (const path of PUBLIC_PATHS) {
      if (!path.includes(':')) expect(isPublicPath(path)).toBe(true);
    }
    expect(isPublicPath('/blog/cut-gpu-costs')).toBe(true);
  });

  it('leaves out the landing page, the signed-in pages and near misses', () => {
    for (const path of ['/', '/marketplace', '/dashboard', '/blog/', '/blog/a/b', '/terms/x']) {
      expect(isPublicPath(path)).toBe(false);
    }
  });
});
