/**
 * Field schemas the corpus's optional files share (models.json, prices.json; issue 40): a date
 * that names a real day, and a public https address. One definition, so the cards and the price
 * list refuse the same values with the same words.
 */
import { z } from 'zod';

/** `YYYY-MM-DD` naming a day that exists (2025-02-30 is refused, never rolled over to March). */
export const isRealDay = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
};

/** One problem per value: the form first, then whether the day exists (a month is read as its first day). */
export const dated = (form: RegExp, formReason: string) =>
  z.string().superRefine((s, ctx) => {
    if (!form.test(s)) ctx.addIssue({ code: 'custom', message: formReason });
    else if (!isRealDay(s.length === 7 ? `${s}-01` : s))
      ctx.addIssue({ code: 'custom', message: 'is not a real date' });
  });

export const isoDay = dated(/^\d{4}-\d{2}-\d{2}$/, 'must be an ISO 8601 date, YYYY-MM-DD');

/**
 * An absolute https address, stored and shown, never fetched by the service. No user or password:
 * the files are published, and an address with credentials is a leak.
 */
export const httpsUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'https:' && u.username === '' && u.password === '' && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute https:// URL without user or password');
