import { builder } from '../../../graphql/builder';
import type { SpaceRow } from '../table';

export const SpaceRef = builder.objectRef<SpaceRow>('Space');
