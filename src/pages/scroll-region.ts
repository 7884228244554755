/**
 * A box that may scroll sideways (a wide table, a long line of code) on a narrow screen is a
 * region a keyboard can reach (`tabindex="0"`: the arrow keys then scroll it) and a screen
 * reader can name (`role="region"`, `aria-label`): WCAG 2.1.1, and axe-core's
 * scrollable-region-focusable rule. Tables that can become cards (card-table.ts) need none.
 */
import { escapeHtml } from './html.js';

/** The opening tag of a scrolling table wrapper named `label` (for renderers that build strings). */
export function scrollRegionOpen(label: string): string {
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="${escapeHtml(label)}">`;
}
