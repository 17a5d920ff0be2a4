import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import type { ChangeRequestInSpace } from '../service';
import { CHANGE_REQUEST_STATUSES } from '../../../domain/change-requests';

export const ChangeRequestRef = builder.objectRef<ChangeRequestInSpace>('ChangeRequest');

export const ChangeRequestStatusEnum = builder.enumType('ChangeRequestStatus', {
  description: 'Where a change request stands.',
  values: enumValues(CHANGE_REQUEST_STATUSES, (status) =>
    ({
      draft: 'Being written; not yet asking for review.',
      open: 'Ready for review and merging.',
      archived: 'Set aside; it may be reopened.',
      merged: 'Merged into the space; it no longer changes.',
    })[status],
  ),
});
