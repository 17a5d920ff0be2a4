import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client';
import { serverSecret } from '../../db/secrets';

/** How long a PDF link works. */
export const PDF_URL_TTL_SECONDS = 3600;

/** What a PDF link renders: the pages of one revision, or one page (with or without its children). */
export interface SignedPdf {
  revisionId: string;
  pageId?: string;
  only: boolean;
  expires: number;
}

const payload = (p: SignedPdf) => `pdf\n${p.revisionId}\n${p.pageId ?? ''}\n${p.only ? 1 : 0}\n${p.expires}`;

async function sign(db: Db, p: SignedPdf): Promise<Buffer> {
  return createHmac('sha256', await serverSecret(db, 'pdf-urls')).update(payload(p)).digest();
}

/**
 * A URL Quire serves the PDF at without a token. Revisions never change, so the link names one
 * and the PDF it gives is the same for as long as it works.
 */
export async function signedPdfUrl(db: Db, publicUrl: string, pdf: Omit<SignedPdf, 'expires'>, now: Date): Promise<string> {
  const signed: SignedPdf = { ...pdf, expires: Math.floor(now.getTime() / 1000) + PDF_URL_TTL_SECONDS };
  const query = new URLSearchParams({ ...(signed.pageId ? { page: signed.pageId } : {}), ...(signed.only ? { only: 'true' } : {}), expires: String(signed.expires) });
  query.set('signature', (await sign(db, signed)).toString('base64url'));
  return `${publicUrl}/pdf/${signed.revisionId}?${query}`;
}

/** What a PDF link names, when its signature holds and it has not expired; null otherwise. */
export async function verifyPdfUrl(db: Db, url: URL, now: Date): Promise<SignedPdf | null> {
  const signed: SignedPdf = {
    revisionId: url.pathname.split('/')[2] ?? '',
    pageId: url.searchParams.get('page') ?? undefined,
    only: url.searchParams.get('only') === 'true',
    expires: Number(url.searchParams.get('expires')),
  };
  const given = Buffer.from(url.searchParams.get('signature') ?? '', 'base64url');
  const expected = await sign(db, signed);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!Number.isFinite(signed.expires) || signed.expires * 1000 < now.getTime()) return null;
  return signed;
}
