import type { RequestContext } from '../context/request-context';
import { MAX_REST_PAGE_SIZE, restPageArgs, type Page, type PageArgs } from '../domain/page';

export const REST_MAX = MAX_REST_PAGE_SIZE;

export function pageArgs(query: URLSearchParams): PageArgs {
  return restPageArgs(query);
}

/**
 * The platform's list shape: `{ items, count, next?: { page } }`. `count` (optional in the
 * platform's `List`) is given when the page knows it: always for lists of up to COUNT_CAP items,
 * never at the price of counting a large organization on every page.
 */
export async function renderList<T, U>(ctx: RequestContext, page: Page<T>, present: (ctx: RequestContext, item: T) => U | Promise<U>) {
  const items = await Promise.all(page.items.map((item) => present(ctx, item)));
  return {
    items,
    ...(page.knownCount !== undefined ? { count: page.knownCount } : {}),
    ...(page.hasNextPage ? { next: { page: page.cursor(page.items.length - 1) } } : {}),
  };
}
