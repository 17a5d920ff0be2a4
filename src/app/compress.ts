import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Below this, the encoding's own overhead and the CPU are not worth it. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** Types worth compressing; streamed answers (event streams, multipart) are left as they are. */
const COMPRESSIBLE = /^(application\/(json|graphql-response\+json|javascript)|text\/(html|css|javascript|plain))\b/;

/** The encoding the caller accepts, brotli first; q=0 refuses one. */
export function acceptedEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

/**
 * Fast settings: answers are compressed on every request, so a low level (brotli 4, gzip 5)
 * gets most of the size for little CPU. Static assets are compressed once, harder (`quality`).
 */
export function encode(bytes: Uint8Array, encoding: Encoding, quality: 'fast' | 'best' = 'fast'): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality === 'best' ? 6 : 4,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    });
  }
  return gzipAsync(bytes, { level: quality === 'best' ? 9 : 5 });
}

/**
 * The compressed answer, or the same one when it is small, already encoded or not text. The
 * answer's headers are changed in place (`Vary`): the caller hands over one whose headers can be.
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  if (!response.body || request.method === 'HEAD' || response.headers.has('content-encoding')) return response;
  if (!COMPRESSIBLE.test(response.headers.get('content-type') ?? '')) return response;
  response.headers.append('Vary', 'Accept-Encoding');
  const encoding = acceptedEncoding(request.headers.get('accept-encoding'));
  const declared = Number(response.headers.get('content-length'));
  if (!encoding || (Number.isFinite(declared) && declared > 0 && declared < COMPRESS_MIN_BYTES)) return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const { status, statusText, headers } = response;
  if (bytes.byteLength < COMPRESS_MIN_BYTES) return new Response(bytes, { status, statusText, headers });
  const body = await encode(bytes, encoding);
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(body.byteLength));
  return new Response(new Uint8Array(body), { status, statusText, headers });
}
