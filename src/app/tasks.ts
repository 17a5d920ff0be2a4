import type { AnyTask, JobDefinition } from '../jobs/job';
import { purgeRateLimitsJob } from '../jobs/purge-rate-limits';
import './integration-environment';
import { openApiProcessTask } from '../modules/openapi/service';
import { deliverTask } from '../modules/installations/service';
import { purgeDeletedSpacesJob } from '../modules/spaces/service';
import { translationRunTask } from '../modules/translations/service';

/**
 * Every on-demand task of the server. Each instance works all of them; a task's name is its
 * queue's name, and the payload it is sent must survive JSON.
 */
export const TASKS: AnyTask[] = [translationRunTask, openApiProcessTask, deliverTask];

/** Every recurring job of the server. */
export const JOBS: JobDefinition[] = [purgeDeletedSpacesJob, purgeRateLimitsJob];
