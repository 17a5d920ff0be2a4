import type { FieldMap } from '../../../graphql/errors';

/** Where the move and transfer inputs of the services sit in the GraphQL inputs. */
export const MOVE_FIELDS: FieldMap = { parent: 'parentId', organization: 'organizationId', 'position.before': 'position.beforeId', 'position.after': 'position.afterId' };
