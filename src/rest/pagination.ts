import type { RequestContext } from '../context/request-context';
import { MAX_REST_PAGE_SIZE, restPageArgs, type Page, type PageArgs } from '../domain/page';

export const REST_MAX = MAX_REST_PAGE_SIZE;

export function pageArgs(query: URLSearchParams): PageArgs {
  return restPageArgs(query);
}

/** The platform's list shape: `{ items, count, next?: { page } }`. */
export async function renderList<T, U>(ctx: RequestContext, page: Page<T>, present: (ctx: RequestContext, item: T) => U | Promise<U>) {
  const [items, count] = await Promise.all([Promise.all(page.items.map((item) => present(ctx, item))), page.count()]);
  return {
    items,
    count,
    ...(page.hasNextPage ? { next: { page: page.cursor(page.items.length - 1) } } : {}),
  };
}
