import { describe, expect, it } from 'vitest';
import { rootMoveRefusal } from './immovable-roots.js';

describe('rootMoveRefusal', () => {
  const folders = [{ at: '/workspace/agent' }, { at: '/workspace/shared' }];

  it('refuses moving either allowed folder, however the path is written', () => {
    expect(
      rootMoveRefusal({ name: 'move_file', input: { source: '/workspace/agent', destination: 'x' }, folders }),
    ).toBe("EBUSY: resource busy or locked, rename '/workspace/agent' -> '/workspace/agent/x'");
    expect(
      rootMoveRefusal({
        name: 'move_file',
        input: { source: '/workspace/shared/../shared/', destination: '/workspace/agent/s' },
        folders,
      }),
    ).toBe("EBUSY: resource busy or locked, rename '/workspace/shared' -> '/workspace/agent/s'");
  });

  it('lets moves below the roots and other tools through', () => {
    expect(
      rootMoveRefusal({ name: 'move_file', input: { source: 'a.md', destination: '/workspace/shared/a.md' }, folders }),
    ).toBeUndefined();
    expect(rootMoveRefusal({ name: 'write_file', input: { path: '/workspace/agent' }, folders })).toBeUndefined();
    expect(
      rootMoveRefusal({ name: 'move_file', input: { source: '/etc', destination: '/workspace/agent/etc' }, folders }),
    ).toBeUndefined();
  });
});
