import { builder } from '../../../graphql/builder';
import type { UserRow } from '../../../db/schema/users';

export const UserRef = builder.objectRef<UserRow>('User');
