import type { Db } from '../../db/client';
import { notify, parseNotification } from '../../db/notify';

/** The NOTIFY channel every instance listens on for change request events. */
export const CHANGE_REQUEST_CHANNEL = 'quire_change_requests';

export type ChangeRequestEventKind = 'created' | 'edited' | 'contentUpdated' | 'statusChanged';

/** What changed, and where: subscribers re-read the change request themselves, with their own rights. */
export interface ChangeRequestEvent {
  kind: ChangeRequestEventKind;
  spaceId: string;
  changeRequestId: string;
}

/** Tells every instance; sent after the write committed. */
export function publishChangeRequestEvent(db: Db, event: ChangeRequestEvent): Promise<void> {
  return notify(db, CHANGE_REQUEST_CHANNEL, event);
}

export const parseChangeRequestEvent = (payload: string) => parseNotification<ChangeRequestEvent>(payload, 'spaceId', 'changeRequestId');
