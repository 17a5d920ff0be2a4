import type { RequestContext } from '../../context/request-context';
import type { InstallationRow, SiteInstallationRow, SpaceInstallationRow } from '../../db/schema/installations';
import type { IntegrationRow } from '../../db/schema/integrations';

/*
 * The spec's `IntegrationEnvironment` holds the integration, its installation and the space or
 * site installation as REST shows them. Their REST shapes belong to the adapters (present.ts) of
 * the integrations and installations modules, which a service may not import: the app hands the
 * presenter in once at start (src/app/integration-environment.ts), and deliveries use it.
 */

/** What a delivery needs besides the event: the database, the settings and the clock. */
export type DeliveryContext = Pick<RequestContext, 'db' | 'config' | 'now'>;

/** The rows an environment is made of. */
export interface EnvironmentSubjects {
  integration: IntegrationRow;
  installation?: InstallationRow;
  spaceInstallation?: SpaceInstallationRow;
  siteInstallation?: SiteInstallationRow;
  /** The integration's token issued for this delivery: the integration is shown as it sees itself through the API. */
  integrationToken: string;
}

/** Their REST shapes: `Integration`, `IntegrationInstallation`, `IntegrationSpaceInstallation`, `IntegrationSiteInstallation`. */
export interface PresentedSubjects {
  integration: object;
  installation?: object;
  spaceInstallation?: object;
  siteInstallation?: object;
}

export type EnvironmentPresenter = (ctx: DeliveryContext, subjects: EnvironmentSubjects) => Promise<PresentedSubjects>;

let presenter: EnvironmentPresenter | null = null;

/** Sets how environments show their integration and installations (the app does, once). */
export function presentEnvironmentWith(present: EnvironmentPresenter): void {
  presenter = present;
}

export function presentEnvironmentSubjects(ctx: DeliveryContext, subjects: EnvironmentSubjects): Promise<PresentedSubjects> {
  if (!presenter) throw new Error('No environment presenter: import src/app/integration-environment.ts where events are delivered');
  return presenter(ctx, subjects);
}
