import { builder } from '../../../graphql/builder';
import type { CollectionRow } from '../table';

export const CollectionRef = builder.objectRef<CollectionRow>('Collection');
