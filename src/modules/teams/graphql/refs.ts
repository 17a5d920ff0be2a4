import { builder } from '../../../graphql/builder';
import type { TeamMembership } from '../service';
import type { TeamRow } from '../table';

export const TeamRef = builder.objectRef<TeamRow>('Team');
export const TeamMembershipRef = builder.objectRef<TeamMembership>('TeamMembership');
