import { definePolicies } from '../../domain/authz';
import { roleAtLeast, type Role } from '../../domain/roles';
import { contentRole } from '../access/service';
import type { SpaceRow } from './table';

declare module '../../domain/authz' {
  interface ActionResources {
    /** Read the space and its content: any role on it. */
    'space:view': SpaceRow;
    /** Take part in discussions: `comment` or more. */
    'space:comment': SpaceRow;
    /** Change the content through change requests: `edit` or more, while the space is not locked. */
    'space:edit': SpaceRow;
    /** Review change requests: `review` or more. */
    'space:review': SpaceRow;
    /** Merge change requests: `edit` or more, while the space is not locked. */
    'space:merge': SpaceRow;
    /** Rename, move, transfer, delete and restore, and manage who has access: `admin`. */
    'space:admin': SpaceRow;
  }
}

const role = (ctx: Parameters<typeof contentRole>[0], row: SpaceRow) => contentRole(ctx, { kind: 'space', row });
const atLeast = (needed: Role) => async (ctx: Parameters<typeof contentRole>[0], row: SpaceRow) => roleAtLeast(await role(ctx, row), needed);
const unlockedAtLeast = (needed: Role) => async (ctx: Parameters<typeof contentRole>[0], row: SpaceRow) =>
  row.editMode !== 'locked' && roleAtLeast(await role(ctx, row), needed);

definePolicies({
  'space:view': atLeast('read'),
  'space:comment': atLeast('comment'),
  'space:edit': unlockedAtLeast('edit'),
  'space:review': atLeast('review'),
  'space:merge': unlockedAtLeast('edit'),
  'space:admin': atLeast('admin'),
});
