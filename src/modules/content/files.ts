import { createHmac, timingSafeEqual } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import type { Db } from '../../db/client';
import { serverSecret } from '../../db/secrets';
import type { FileData } from './tree';

/** What a file is, from its bytes: the type the bytes say (else the name's), and an image's size. */
export async function describeFile(bytes: Buffer, name: string, declared?: string): Promise<Pick<FileData, 'contentType' | 'size' | 'dimensions'>> {
  const sniffed = await fileTypeFromBuffer(bytes);
  // Browsers and clients declare application/octet-stream for any type they do not know.
  const useful = declared && declared !== 'application/octet-stream' ? declared : undefined;
  const contentType = sniffed?.mime ?? useful ?? typeByName(name);
  let dimensions: FileData['dimensions'];
  if (contentType.startsWith('image/')) {
    try {
      const { width, height } = imageSize(bytes);
      if (width && height) dimensions = { width, height };
    } catch {
      // Bytes that claim to be an image but are not one have no dimensions.
    }
  }
  return { contentType, size: bytes.length, ...(dimensions ? { dimensions } : {}) };
}

const BY_EXTENSION: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  html: 'text/html',
  json: 'application/json',
  svg: 'image/svg+xml',
  csv: 'text/csv',
};

function typeByName(name: string): string {
  return BY_EXTENSION[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** How long a file's download URL works. */
export const DOWNLOAD_URL_TTL_SECONDS = 3600;

export interface SignedFile {
  blob: string;
  name: string;
  contentType: string;
  expires: number;
}

const payload = (f: SignedFile) => `${f.blob}\n${f.name}\n${f.contentType}\n${f.expires}`;

/**
 * A URL Quire itself serves the bytes at, without a token: the signature (HMAC with a server
 * secret shared by every instance) vouches for the blob, its name and type, until it expires.
 */
export async function signedDownloadUrl(db: Db, publicUrl: string, file: FileData, now: Date): Promise<string> {
  const signed: SignedFile = { blob: file.blob, name: file.name, contentType: file.contentType, expires: Math.floor(now.getTime() / 1000) + DOWNLOAD_URL_TTL_SECONDS };
  const signature = createHmac('sha256', await serverSecret(db, 'file-urls')).update(payload(signed)).digest('base64url');
  const query = new URLSearchParams({ name: signed.name, type: signed.contentType, expires: String(signed.expires), signature });
  return `${publicUrl}/files/${signed.blob}?${query}`;
}

/** The file a download URL names, when its signature holds and it has not expired; null otherwise. */
export async function verifyDownloadUrl(db: Db, url: URL, now: Date): Promise<SignedFile | null> {
  const blob = url.pathname.split('/')[2] ?? '';
  const signed: SignedFile = {
    blob,
    name: url.searchParams.get('name') ?? '',
    contentType: url.searchParams.get('type') ?? '',
    expires: Number(url.searchParams.get('expires')),
  };
  const given = Buffer.from(url.searchParams.get('signature') ?? '', 'base64url');
  const expected = createHmac('sha256', await serverSecret(db, 'file-urls')).update(payload(signed)).digest();
  if (!/^[0-9a-f]{64}$/.test(blob) || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!Number.isFinite(signed.expires) || signed.expires * 1000 < now.getTime()) return null;
  return signed;
}
