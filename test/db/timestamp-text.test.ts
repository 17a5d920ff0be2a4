/** Timestamps read by position give the very Date that `new Date` gives, for every shape PostgreSQL writes. */
import { describe, expect, it } from 'vitest';
import { timestampFromText } from '../../src/db/timestamp-text';

/** A small seeded generator, so that a failure names a value that can be replayed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('timestampFromText', () => {
  it('agrees with new Date on 20,000 random timestamps in both of PostgreSQL’s spellings', () => {
    const pick = seeded(20261127);
    for (let i = 0; i < 20_000; i++) {
      const date = `${pad(100 + pick(9900), 4)}-${pad(1 + pick(12), 2)}-${pad(1 + pick(28), 2)}`;
      const time = `${pad(pick(24), 2)}:${pad(pick(60), 2)}:${pad(pick(60), 2)}`;
      const fraction = ['', `.${pad(pick(1000), 3)}`, `.${pick(10)}`, `.${pad(pick(100), 2)}`, `.${pad(pick(1_000_000), 6)}`][pick(5)];
      const sign = pick(2) ? '+' : '-';
      const hours = pad(pick(15), 2);
      const zone = [`${sign}${hours}`, `${sign}${hours}:${pad(pick(60), 2)}`, `${sign}${hours}${['00', '30', '45'][pick(3)]}`][pick(3)];
      for (const text of [`${date} ${time}${fraction}${zone}`, `${date}T${time}${fraction}${zone}`]) {
        const expected = new Date(text);
        if (Number.isNaN(expected.getTime())) continue;
        expect(timestampFromText(text).getTime(), text).toBe(expected.getTime());
      }
    }
  });

  it('hands every other shape to new Date', () => {
    for (const text of ['infinity', '-infinity', '0044-03-15 12:00:00+00', '2026-11-27 01:02:03+00 BC', '12026-01-01 00:00:00+00', '2026-11-27', 'not a date at all, no']) {
      expect(timestampFromText(text).getTime(), text).toEqual(new Date(text).getTime());
    }
  });
});
