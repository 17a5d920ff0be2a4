import { builder } from '../../../graphql/builder';
import type { UserRow } from '../table';

export const UserRef = builder.objectRef<UserRow>('User');
