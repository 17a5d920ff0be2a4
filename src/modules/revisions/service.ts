/*
 * Revisions are written by the services of spaces, content and change requests, inside their own
 * transactions and after their own checks: these are the steps they share.
 */
export { copyRevision, createInitialRevision, getRevision, insertRevision } from './queries';
