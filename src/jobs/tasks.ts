import { openApiProcessTask } from '../modules/openapi/service';
import { deliverTask } from '../modules/installations/service';
import { translationRunTask } from '../modules/translations/service';
import type { AnyTask } from './job';

/**
 * Every on-demand task of the server. Each instance works all of them; a task's name is its
 * queue's name, and the payload it is sent must survive JSON.
 */
export const TASKS: AnyTask[] = [translationRunTask, openApiProcessTask, deliverTask];
