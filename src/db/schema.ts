export * from '../modules/users/table';
export * from '../modules/organizations/table';
export * from '../modules/members/table';
export * from '../modules/teams/table';
export * from '../modules/invites/table';
export * from './secrets.table';
