import { builder, type BuilderTypes } from '../../../graphql/builder';
import type { CollectionRow } from '../../../db/schema/collections';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { getParentCollection } from '../service';

export const CollectionRef = builder.objectRef<CollectionRow>('Collection');

/** Where a space or collection sits: its organization, and the collection holding it. */
export function placementFields<Row extends { organizationId: string; parentId: string | null }>(
  t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Row>,
  noun: 'space' | 'collection',
) {
  return {
    organization: t.field({
      type: OrganizationRef,
      description: `The organization the ${noun} belongs to.`,
      resolve: (row, _, ctx) => getOrganization(ctx, row.organizationId),
    }),
    parent: t.field({
      type: CollectionRef,
      nullable: true,
      description: `The collection holding ${noun === 'space' ? 'the space' : 'this one'}; null at the top level of the organization or when the viewer may not see it.`,
      resolve: (row, _, ctx) => getParentCollection(ctx, row),
    }),
  };
}
