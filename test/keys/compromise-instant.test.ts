/**
 * The instant `gspc keys revoke --compromised-since` reads (issue 36, defect 5): before,
 * `2026-02-30T00:00:00Z` was accepted and moved to 2 March. `parseIsoInstant`
 * (src/core/iso-instant.ts) accepts an ISO 8601 instant with seconds and a zone only when the
 * date, the time and the offset exist, and returns the UTC instant it names, which reads back as
 * itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIsoInstant } from '../../src/core/iso-instant.js';

describe('parseIsoInstant', () => {
  it('reads an instant with a zone as UTC, and what it returns reads back as itself', () => {
    const cases: [string, string][] = [
      ['2026-11-20T09:00:00Z', '2026-11-20T09:00:00.000Z'],
      ['2026-11-20T09:00:00.5Z', '2026-11-20T09:00:00.500Z'],
      ['2026-11-20T09:00:00.123456789Z', '2026-11-20T09:00:00.123Z'],
      ['2026-11-20T10:30:00+01:30', '2026-11-20T09:00:00.000Z'],
      ['2026-11-20T00:00:00-05:00', '2026-11-20T05:00:00.000Z'],
      ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ];
    for (const [text, utc] of cases) {
      assert.equal(parseIsoInstant(text), utc, text);
      assert.equal(parseIsoInstant(utc), utc, `${utc} round-trips`);
    }
  });

  it('refuses a moment that does not exist, a wrong offset, and anything without seconds or a zone', () => {
    for (const text of [
      '2026-02-30T00:00:00Z',
      '2027-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-20T24:00:00Z',
      '2026-11-20T23:60:00Z',
      '2026-11-20T23:59:60Z',
      '2026-11-20T09:00:00+24:00',
      '2026-11-20T09:00:00+01:60',
      '2026-11-20T09:00:00',
      '2026-11-20T09:00Z',
      '2026-11-20',
      ' 2026-11-20T09:00:00Z',
      '2026-11-20T09:00:00z',
      '+002026-11-20T09:00:00Z',
    ])
      assert.equal(parseIsoInstant(text), undefined, text);
  });
});
