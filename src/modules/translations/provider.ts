import { safeFetch } from '../../lib/safe-fetch';

/** A machine-translation engine: texts in, the same number of texts out, in order. */
export interface TranslationProvider {
  translate(texts: readonly string[], from: string, to: string): Promise<string[]>;
}

/** Why a provider could not translate: what the translation's failure shows. */
export class ProviderError extends Error {}

/** Where the platform's language codes differ from LibreTranslate's. */
const LIBRE_CODES: Record<string, string> = { 'pt-br': 'pb', no: 'nb' };

/** Texts per request, and characters per request: small enough for any LibreTranslate's limits. */
export const BATCH = { texts: 50, chars: 20_000 };

/**
 * The LibreTranslate API (`POST /translate` with `q` as an array, plain-text format): answers
 * `{ translatedText: string[] }`. The call goes through the SSRF guard, which trusts the
 * configured URL's own origin (an operator setting, not user input), so a provider on loopback or a
 * private address works without QUIRE_FETCH_ALLOW_HOSTS.
 */
export function libreTranslate(settings: { url: string; key?: string }, allowHosts: readonly string[], timeoutMs = 60_000): TranslationProvider {
  const endpoint = `${settings.url.replace(/\/$/, '')}/translate`;
  return {
    async translate(texts, from, to) {
      if (texts.length === 0) return [];
      const body = JSON.stringify({ q: texts, source: LIBRE_CODES[from] ?? from, target: LIBRE_CODES[to] ?? to, format: 'text', ...(settings.key ? { api_key: settings.key } : {}) });
      let answer: unknown;
      try {
        // QUIRE_TRANSLATE_URL is the operator's own setting: a LibreTranslate on loopback or the private network is the usual setup.
        const fetched = await safeFetch(endpoint, { allowHosts, operatorOrigin: new URL(endpoint).origin, timeoutMs, maxBytes: 20 * 1024 * 1024, post: { body, contentType: 'application/json' } });
        answer = JSON.parse(fetched.bytes.toString('utf8'));
      } catch (error) {
        const reason = error instanceof SyntaxError ? 'answered something that is not JSON' : (error as Error).message.replace(/^url: /, '');
        throw new ProviderError(`The translation provider failed: ${reason}`);
      }
      const translated = (answer as { translatedText?: unknown } | null)?.translatedText;
      if (!Array.isArray(translated) || translated.length !== texts.length || !translated.every((t) => typeof t === 'string')) {
        throw new ProviderError(`The translation provider failed: its answer has no translatedText list of ${texts.length} texts`);
      }
      return translated as string[];
    },
  };
}
