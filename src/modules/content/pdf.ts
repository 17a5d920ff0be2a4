import type { List, Nodes, PhrasingContent, Root, Table } from 'mdast';
import { parseMarkdownTree } from '../../lib/markdown-tree';
import type { Resolver } from './markdown';

/** One page of the document: its title and markdown, and how its links and images resolve. */
export interface PdfPage {
  title: string;
  depth: number;
  markdown: string;
  resolve: Resolver;
}

/** The bytes of an image file of the revision, by file id; null when it is not a PNG or JPEG pdfkit can draw. */
export type ImageSource = (fileId: string) => Promise<Buffer | null>;

const FONT = { body: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', code: 'Courier' };
const HEADING_SIZE = [20, 16, 14, 12, 11, 11];
const MAX_IMAGE_WIDTH = 460;

/** The text of inline content, as it reads. */
function inline(nodes: readonly PhrasingContent[]): string {
  return nodes
    .map((n) => {
      if (n.type === 'text' || n.type === 'inlineCode') return n.value;
      if (n.type === 'break') return '\n';
      if (n.type === 'image') return n.alt ?? '';
      if ('children' in n) return inline(n.children as PhrasingContent[]);
      return '';
    })
    .join('');
}

/**
 * A PDF of pages in the order given: each starts on a new sheet with its title; headings,
 * paragraphs, lists, quotes, code, tables and images (PNG and JPEG files of the revision) follow
 * the markdown. Fonts are the PDF standard ones, so no font file is needed. `checkpoint` runs
 * before each page: it may wait, or throw to stop the rendering.
 */
export async function renderPdf(title: string, pages: readonly PdfPage[], image: ImageSource, checkpoint: () => void | Promise<void> = () => {}): Promise<Buffer> {
  // pdfkit and its fonts and compressors load with the first PDF, not at server start.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Producer: 'Quire' }, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const images = new Map<string, Buffer | null>();
  const block = async (node: Nodes, page: PdfPage, indent: number): Promise<void> => {
    switch (node.type) {
      case 'heading':
        doc.moveDown(0.5).font(FONT.bold).fontSize(HEADING_SIZE[node.depth - 1]).text(inline(node.children), { indent });
        doc.moveDown(0.3);
        return;
      case 'paragraph': {
        const pictures = node.children.filter((c) => c.type === 'image');
        const words = inline(node.children.filter((c) => c.type !== 'image'));
        if (words.trim()) doc.font(FONT.body).fontSize(11).text(words, { indent }).moveDown(0.5);
        for (const picture of pictures) await drawImage(picture.url, picture.alt ?? '', page);
        return;
      }
      case 'list':
        await list(node, page, indent);
        return;
      case 'blockquote':
        for (const child of node.children) await block(child, page, indent + 18);
        return;
      case 'code':
        doc.font(FONT.code).fontSize(9.5).text(node.value, { indent: indent + 12 }).moveDown(0.5);
        return;
      case 'table':
        table(node, indent);
        return;
      case 'thematicBreak':
        doc.moveDown(0.5);
        return;
      default:
        if ('children' in node) for (const child of node.children as Nodes[]) await block(child, page, indent);
        else if ('value' in node && typeof node.value === 'string') doc.font(FONT.body).fontSize(11).text(node.value, { indent });
    }
  };

  const list = async (node: List, page: PdfPage, indent: number) => {
    let n = node.start ?? 1;
    for (const item of node.children) {
      const marker = node.ordered ? `${n++}.` : '•';
      const [first, ...rest] = item.children;
      const lead = first?.type === 'paragraph' ? inline(first.children) : '';
      doc.font(FONT.body).fontSize(11).text(`${marker} ${lead}`, { indent: indent + 12 });
      for (const child of first?.type === 'paragraph' ? rest : item.children) await block(child, page, indent + 24);
    }
    doc.moveDown(0.5);
  };

  const table = (node: Table, indent: number) => {
    node.children.forEach((row, r) => {
      const cells = row.children.map((cell) => inline(cell.children));
      doc.font(r === 0 ? FONT.bold : FONT.body).fontSize(10).text(cells.join('  |  '), { indent: indent + 6 });
    });
    doc.moveDown(0.5);
  };

  const drawImage = async (href: string, alt: string, page: PdfPage) => {
    const resolved = page.resolve(href);
    const fileId = resolved.ref.kind === 'file' ? resolved.ref.file : null;
    if (fileId && !images.has(fileId)) images.set(fileId, await image(fileId));
    const bytes = fileId ? images.get(fileId) : null;
    if (bytes) {
      try {
        doc.image(bytes, { fit: [MAX_IMAGE_WIDTH, 400] }).moveDown(0.5);
        return;
      } catch {
        // Bytes pdfkit cannot draw fall back to their description.
      }
    }
    if (alt) doc.font(FONT.italic).fontSize(10).text(`[${alt}]`).moveDown(0.5);
  };

  for (const page of pages) {
    await checkpoint();
    doc.addPage();
    doc.font(FONT.bold).fontSize(page.depth === 0 ? 24 : 20).text(page.title).moveDown(0.6);
    const root: Root = parseMarkdownTree(page.markdown);
    for (const node of root.children) await block(node, page, 0);
  }
  if (!pages.length) doc.addPage().font(FONT.body).fontSize(11).text('No pages.');
  doc.end();
  return done;
}
