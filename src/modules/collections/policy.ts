import { definePolicies } from '../../domain/authz';
import { roleAtLeast } from '../../domain/roles';
import { contentRole } from '../access/service';
import type { CollectionRow } from './table';

declare module '../../domain/authz' {
  interface ActionResources {
    /** See the collection: any role on it. */
    'collection:view': CollectionRow;
    /** Create spaces and collections inside it: `create` or more on it. */
    'collection:create': CollectionRow;
    /** Rename, move, transfer, delete and set its default level: `admin` on it. */
    'collection:admin': CollectionRow;
  }
}

const atLeast = (role: Parameters<typeof roleAtLeast>[1]) => async (ctx: Parameters<typeof contentRole>[0], row: CollectionRow) =>
  roleAtLeast(await contentRole(ctx, { kind: 'collection', row }), role);

definePolicies({
  'collection:view': atLeast('read'),
  'collection:create': atLeast('create'),
  'collection:admin': atLeast('admin'),
});
