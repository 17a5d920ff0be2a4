import type { TaskDefinition } from './job';

/**
 * Every on-demand task of the server. Each instance works all of them; a task's name is its
 * queue's name, and the payload it is sent must survive JSON.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const TASKS: TaskDefinition<any>[] = [];
