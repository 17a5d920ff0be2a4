/** A change request's statuses; `merged` is only ever set by a merge. */
export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
