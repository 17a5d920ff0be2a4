import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DefaultLevel } from '../../domain/permissions';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { ConflictError, ValidationError } from '../../domain/errors';
import { collections } from '../../db/schema/collections';
import { spaces } from '../../db/schema/spaces';
import type { PositionInput } from './input';

/*
 * Spaces and collections share one display order under each parent (a collection, or the top
 * level of the organization). These run inside the caller's transaction, after it has authorized
 * the move.
 */

export type ContentKind = 'space' | 'collection';
export interface Sibling {
  kind: ContentKind;
  id: string;
  position: number;
}

/**
 * The spaces (not in the trash) and collections directly under a parent, or at the top level of
 * the organization when parent is null, in display order. Spaces and collections share one order.
 */
export async function siblingsOf(db: Tx, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const under = (column: typeof spaces.parentId | typeof collections.parentId): SQL => (parentId ? eq(column, parentId) : isNull(column));
  const [s, c] = await Promise.all([
    db
      .select({ id: spaces.id, position: spaces.position })
      .from(spaces)
      .where(and(eq(spaces.organizationId, organizationId), under(spaces.parentId), isNull(spaces.deletedAt)))
      .orderBy(asc(spaces.position)),
    db
      .select({ id: collections.id, position: collections.position })
      .from(collections)
      .where(and(eq(collections.organizationId, organizationId), under(collections.parentId)))
      .orderBy(asc(collections.position)),
  ]);
  return [...s.map((r) => ({ kind: 'space' as const, ...r })), ...c.map((r) => ({ kind: 'collection' as const, ...r }))].sort(
    (a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

export function endPosition(siblings: Sibling[]): number {
  return siblings.length ? siblings[siblings.length - 1].position + 1 : 1;
}

const same = (a: { kind: ContentKind; id: string }, b: { kind: ContentKind; id: string }) => a.kind === b.kind && a.id === b.id;

/**
 * Where among `siblings` (the item itself excluded) a position puts the item: the index it takes.
 * A pointer to something that is not a sibling in that parent is refused.
 */
export function indexFor(siblings: Sibling[], position: PositionInput | undefined): number {
  if (!position || (!position.before && !position.after)) return siblings.length;
  const find = (pointer: { kind: ContentKind; id: string }, field: string) => {
    const i = siblings.findIndex((s) => same(s, pointer));
    if (i < 0) throw new ValidationError(`position.${field}: the ${pointer.kind} ${pointer.id} is not next to it in the target`, ['position', field]);
    return i;
  };
  const before = position.before ? find(position.before, 'before') : undefined;
  const after = position.after ? find(position.after, 'after') : undefined;
  if (before !== undefined && after !== undefined && after + 1 !== before) {
    throw new ValidationError('position: `after` must come right before `before`', ['position']);
  }
  return before ?? after! + 1;
}

/**
 * A position value that sorts at `index` among `siblings`: halfway between its neighbours. When
 * repeated moves have worn the gap down to nothing, the siblings are renumbered first.
 */
export async function positionAt(db: Tx, siblings: Sibling[], index: number): Promise<number> {
  const lo = siblings[index - 1]?.position;
  const hi = siblings[index]?.position;
  if (lo === undefined) return hi === undefined ? 1 : hi - 1;
  if (hi === undefined) return lo + 1;
  const middle = (lo + hi) / 2;
  if (middle > lo && middle < hi) return middle;
  for (const [i, sibling] of siblings.entries()) {
    const value = i < index ? i + 1 : i + 2;
    if (sibling.kind === 'space') await db.update(spaces).set({ position: value }).where(eq(spaces.id, sibling.id));
    else await db.update(collections).set({ position: value }).where(eq(collections.id, sibling.id));
  }
  return index + 1;
}

/**
 * The position an item takes when moved under `parentId` at `position`, among its siblings there.
 * Refuses with CONFLICT a move that would leave it exactly where it is.
 */
export async function positionForMove(
  db: Tx,
  item: { kind: ContentKind; id: string; organizationId: string; parentId: string | null },
  parentId: string | null,
  position: PositionInput | undefined,
): Promise<number> {
  const all = await siblingsOf(db, item.organizationId, parentId);
  const isItem = (s: Sibling) => s.kind === item.kind && s.id === item.id;
  const current = item.parentId === parentId ? all.findIndex(isItem) : -1;
  const others = all.filter((s) => !isItem(s));
  const index = indexFor(others, position);
  if (current === index) throw new ConflictError(`The ${item.kind} is already at this place`);
  return positionAt(db, others, index);
}

/** The ids of a collection and every collection inside it. */
export async function subtreeIds(db: Tx, collectionId: string): Promise<string[]> {
  const result = (await db.execute(sql`with recursive sub(id, depth) as (
      select ${collectionId}::text, 0
      union all
      select c.id, sub.depth + 1 from collections c join sub on c.parent_id = sub.id where sub.depth < 64
    ) select id from sub`));
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/**
 * Puts the spaces held by these collections in the trash, each keeping the default level it had
 * through its collections (`levels`, by collection id): a trashed space comes back at the top level,
 * where 'inherit' would mean the organization role, so a closed space must not open on restore.
 */
export async function trashSpacesIn(db: Tx, levels: { collectionId: string; level: DefaultLevel | undefined }[], at: Date): Promise<void> {
  for (const { collectionId, level } of levels) {
    if (level === undefined) continue;
    await db
      .update(spaces)
      .set({ defaultLevel: level })
      .where(and(eq(spaces.parentId, collectionId), eq(spaces.defaultLevel, 'inherit'), isNull(spaces.deletedAt)));
  }
  const ids = levels.map((l) => l.collectionId);
  if (ids.length) await db.update(spaces).set({ deletedAt: at }).where(and(inArray(spaces.parentId, ids), isNull(spaces.deletedAt)));
}

/** Moves collections and the spaces they hold to another organization; answers the spaces' ids. */
export async function moveToOrganization(db: Tx, collectionIds: string[], organizationId: string, at: Date): Promise<string[]> {
  await db.update(collections).set({ organizationId, updatedAt: at }).where(inArray(collections.id, collectionIds));
  const moved = await db.update(spaces).set({ organizationId }).where(inArray(spaces.parentId, collectionIds)).returning({ id: spaces.id });
  return moved.map((s) => s.id);
}
