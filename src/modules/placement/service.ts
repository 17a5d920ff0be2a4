/*
 * Where spaces and collections sit: the shared order of a parent's children, and moves within
 * and across organizations. Spaces and collections use these inside their own transactions,
 * after their own permission checks; nothing here is reachable from outside on its own.
 */
export { moveSchema, transferSchema, type MoveInput, type PositionInput, type TransferInput } from './input';
export { endPosition, moveToOrganization, positionAt, positionForMove, siblingsOf, subtreeIds, trashSpacesIn } from './queries';
