import { builder } from '../../../graphql/builder';
import type { TeamMembership } from '../service';
import type { TeamRow } from '../../../db/schema/teams';

export const TeamRef = builder.objectRef<TeamRow>('Team');
export const TeamMembershipRef = builder.objectRef<TeamMembership>('TeamMembership');
