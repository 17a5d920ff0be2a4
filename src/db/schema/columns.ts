import { timestamp } from 'drizzle-orm/pg-core';

/** Timestamps keep milliseconds only, so a JavaScript Date round-trips exactly through a cursor. */
export const ts = () => timestamp({ withTimezone: true, precision: 3 });
