/**
 * A `timestamptz` as PostgreSQL writes it (`2026-11-27 01:02:03.123+00`, or inside JSON
 * `2026-11-27T01:02:03.123+00:00`), read into a Date by its fixed positions. `new Date(text)` goes
 * through V8's general date parser, and a page of spaces with their parent collections reads 300
 * of them per request. Anything of another shape (years before 100 or past 9999, BC, infinity)
 * goes to `new Date`, as drizzle itself would have done.
 */
export function timestampFromText(text: string): Date {
  if (text.length < 22) return new Date(text);
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  const sep = text.charCodeAt(10);
  if (year < 100 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || (sep !== 32 && sep !== 84) || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return new Date(text);
  }
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === 46) {
    // Milliseconds: the first three digits of the fraction, as Date keeps no more.
    let scale = 100;
    for (let c = text.charCodeAt(++at); c >= 48 && c <= 57; c = text.charCodeAt(++at)) {
      ms += (c - 48) * scale;
      scale /= 10;
    }
    ms = Math.floor(ms);
  }
  const sign = text.charCodeAt(at);
  const rest = text.length - at - 1;
  if ((sign !== 43 && sign !== 45) || (rest !== 2 && rest !== 4 && rest !== 5)) return new Date(text);
  const zoneHours = digits(text, at + 1, at + 3);
  const zoneMinutes = rest === 2 ? 0 : digits(text, text.length - 2, text.length);
  if (rest === 5 && text.charCodeAt(at + 3) !== 58) return new Date(text);
  const offset = (sign === 43 ? 1 : -1) * (zoneHours * 60 + zoneMinutes) * 60_000;
  const time = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset;
  return Number.isNaN(time) ? new Date(text) : new Date(time);
}

/** The number written by the ASCII digits from `from` to `to`; NaN if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    value = value * 10 + c;
  }
  return value;
}
