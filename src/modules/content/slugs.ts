/**
 * Slugs from titles: lower-case ASCII letters, digits and single hyphens, diacritics folded
 * (`Café au lait` becomes `cafe-au-lait`). Anything that leaves nothing becomes `untitled`.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug || 'untitled';
}

/** `base`, or `base-2`, `base-3`... : the first one not taken among the siblings. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
