import { PgDialect } from 'drizzle-orm/pg-core';

/** How the app's drizzle names columns (./client.ts): TypeScript's camelCase keys, snake_case in SQL. */
export const CASING = 'snake_case';

/** SQL rendered to text as drizzle renders it for the app's database, for statements built once. */
export const appDialect = new PgDialect({ casing: CASING });
