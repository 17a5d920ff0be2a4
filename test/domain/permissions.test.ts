import { describe, expect, it } from 'vitest';
import { resolveContentRole, type ContentLink } from '../../src/domain/permissions';

const link = (defaultLevel: ContentLink['defaultLevel'], ...grants: ContentLink['grants']): ContentLink => ({ defaultLevel, grants });

describe('content role resolution', () => {
  it('gives organization admins admin everywhere, even on content closed by default', () => {
    expect(resolveContentRole({ membership: { role: 'admin' }, chain: [link(null)] })).toBe('admin');
  });

  it('gives members the organization role when nothing on the chain sets a default', () => {
    expect(resolveContentRole({ membership: { role: 'edit' }, chain: [link('inherit'), link('inherit')] })).toBe('edit');
  });

  it('takes the nearest default level up the collection tree', () => {
    const chain = [link('inherit'), link('comment'), link('edit')];
    expect(resolveContentRole({ membership: { role: 'create' }, chain })).toBe('comment');
  });

  it('caps a generous default by the organization role', () => {
    expect(resolveContentRole({ membership: { role: 'read' }, chain: [link('edit')] })).toBe('read');
  });

  it('closes content to members when the default level is null', () => {
    expect(resolveContentRole({ membership: { role: 'edit' }, chain: [link(null)] })).toBeNull();
  });

  it('lets explicit grants, direct or through a team, on any ancestor exceed the cap', () => {
    expect(resolveContentRole({ membership: { role: 'read' }, chain: [link(null), link('inherit', 'review')] })).toBe('review');
    expect(resolveContentRole({ membership: { role: 'read' }, chain: [link('read', undefined, 'edit')] })).toBe('edit');
  });

  it('gives guests only what is granted to them', () => {
    expect(resolveContentRole({ membership: { role: null }, chain: [link('edit')] })).toBeNull();
    expect(resolveContentRole({ membership: { role: null }, chain: [link('edit', 'comment')] })).toBe('comment');
  });

  it('gives outsiders nothing, even a grant left from when they were members', () => {
    expect(resolveContentRole({ chain: [link('admin')] })).toBeNull();
    expect(resolveContentRole({ chain: [link('read', 'edit')] })).toBeNull();
  });

  it('gives disabled members nothing, grants included', () => {
    expect(resolveContentRole({ membership: { role: 'admin', disabled: true }, chain: [link('edit', 'edit')] })).toBeNull();
  });
});
