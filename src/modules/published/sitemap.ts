import type { RequestContext } from '../../context/request-context';
import type { SiteRow } from '../../db/schema/sites';
import { allPagesOf, contentAt, withComputedPages, type SpaceContent } from '../content/service';
import { sectionsInOrder, spacesOf, topLevel, type SiteTree } from '../sites/service';
import { spaceById } from '../spaces/service';

/** The pages of a space's content that are documents, in reading order. */
export const documents = (content: SpaceContent) => allPagesOf(content.tree).filter((p) => p.data.type === 'document');

/** Every page a crawler may index: public sections and variants without conditions, pages neither hidden nor noIndex. */
export async function sitemap(ctx: RequestContext, site: SiteRow, tree: SiteTree, base: string): Promise<string> {
  const urls: string[] = [];
  const items = tree.sections.length ? topLevel(tree).flatMap((i) => (i.kind === 'section' ? [i.row] : tree.sections.filter((s) => s.groupId === i.row.id))) : [null];
  const defaultSection = tree.sections.find((s) => s.id === site.defaultSiteSectionId) ?? sectionsInOrder(tree)[0];
  for (const section of items) {
    if (section?.condition) continue;
    const variants = spacesOf(tree, section?.id ?? null);
    const defaultId = section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId;
    for (const variant of variants) {
      if (variant.condition) continue;
      const space = await spaceById(ctx).load(variant.spaceId);
      if (!space || space.deletedAt) continue;
      const content = await withComputedPages(ctx, await contentAt(ctx, space, space.revisionId));
      const prefix = [section && section.id !== defaultSection?.id ? section.path : null, variant.id === defaultId ? null : variant.path].filter(Boolean).join('/');
      for (const page of documents(content)) {
        if (page.data.hidden || page.data.noIndex) continue;
        urls.push(`${prefix ? `${base}/${prefix}` : base}/${content.tree.byId.get(page.data.id)!.path}`);
      }
    }
  }
  const esc = (u: string) => u.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `  <url><loc>${esc(u)}</loc></url>`).join('\n')}\n</urlset>\n`;
}
