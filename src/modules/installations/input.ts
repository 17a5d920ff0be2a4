import { z } from 'zod';
import { bodyObject, oneOf } from '../../domain/validate';

const selection = (noun: string) => oneOf(['all', 'selected'], noun);
const externalIds = z.array(z.string().max(200)).max(5, 'externalIds: at most 5');
const installationConfiguration = z.record(z.string(), z.unknown(), { error: 'configuration must be an object' });

export const installSchema = z.object({ organization: z.string({ error: 'organization is required' }).min(1, 'organization is required') }, bodyObject);
export type InstallInput = z.input<typeof installSchema>;

export const installationUpdateSchema = z
  .object({ externalIds: externalIds.optional(), configuration: installationConfiguration.optional(), space_selection: selection('space_selection').optional(), site_selection: selection('site_selection').optional() }, bodyObject)
  .strict();
export type InstallationUpdateInput = z.input<typeof installationUpdateSchema>;

export const contentInstallationUpdateSchema = z.object({ externalIds: externalIds.optional(), configuration: installationConfiguration.optional() }, bodyObject).strict();
export type ContentInstallationUpdateInput = z.input<typeof contentInstallationUpdateSchema>;

export const spaceInstallSchema = z.object({ space: z.string({ error: 'space is required' }).min(1, 'space is required') }, bodyObject);
/** The whole set of spaces an installation is given, at once (GraphQL's `integrationInstallationSpacesSet`). */
export const installationSpacesSchema = z.object(
  { spaces: z.array(z.string({ error: 'spaces: each must be a space id' }).min(1, 'spaces: each must be a space id'), { error: 'spaces is required' }).max(1000, 'spaces: at most 1000') },
  bodyObject,
);
export type InstallationSpacesInput = z.input<typeof installationSpacesSchema>;

export const siteInstallSchema = z.object({ siteId: z.string({ error: 'siteId is required' }).min(1, 'siteId is required') }, bodyObject);
