import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ConflictError, ValidationError } from '../../domain/errors';
import { collections } from '../collections/table';
import { spaces } from '../spaces/table';

/** A database handle or an open transaction: both build queries alike. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export type ContentKind = 'space' | 'collection';
export interface Sibling {
  kind: ContentKind;
  id: string;
  position: number;
}

/** A `{ before, after }` position: pointers to siblings the item should sit next to. */
export interface PositionInput {
  before?: { type: ContentKind; id: string };
  after?: { type: ContentKind; id: string };
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

const same = (a: { kind: ContentKind; id: string }, b: { type: ContentKind; id: string }) => a.kind === b.type && a.id === b.id;

/**
 * Where among `siblings` (the item itself excluded) a position puts the item: the index it takes.
 * A pointer to something that is not a sibling in that parent is refused.
 */
export function indexFor(siblings: Sibling[], position: PositionInput | undefined): number {
  if (!position || (!position.before && !position.after)) return siblings.length;
  const find = (pointer: { type: ContentKind; id: string }, field: string) => {
    const i = siblings.findIndex((s) => same(s, pointer));
    if (i < 0) throw new ValidationError(`position.${field}: the ${pointer.type} ${pointer.id} is not next to it in the target`, ['position', field]);
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
