import { createContext } from '../auth/context';
import { loadIntegrationViewer } from '../auth/integration-tokens';
import { hashToken } from '../lib/ids';
import { presentEnvironmentWith } from '../modules/events/service';
import { presentInstallation, presentSiteInstallation, presentSpaceInstallation } from '../modules/installations/present';
import { presentIntegration } from '../modules/integrations/present';

/*
 * What an integration's script finds in its environment: its integration, installation and space
 * or site installation exactly as REST answers them to the integration's own token (so
 * `permissions` are what that token may do). Imported for its effect wherever events are
 * delivered: the app (renders, public endpoints) and the task list (the queue).
 */
presentEnvironmentWith(async (delivery, subjects) => {
  const viewer = await loadIntegrationViewer(delivery.db, hashToken(subjects.integrationToken), delivery.now());
  const ctx = createContext({ db: delivery.db, config: delivery.config, now: delivery.now }, viewer);
  const name = subjects.integration.name;
  return {
    integration: await presentIntegration(ctx, subjects.integration),
    ...(subjects.installation ? { installation: presentInstallation(ctx, subjects.installation, name) } : {}),
    ...(subjects.spaceInstallation ? { spaceInstallation: presentSpaceInstallation(ctx, subjects.spaceInstallation, name) } : {}),
    ...(subjects.siteInstallation ? { siteInstallation: presentSiteInstallation(ctx, subjects.siteInstallation, name) } : {}),
  };
});
