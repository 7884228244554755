/**
 * The demo corpus's reported figures (`status/reported.json`, served at `/api/reported`).
 * SYNTHETIC: the models are the demo's fictitious ones and so are the vendors and documents
 * cited. Reported figures are never measurements of the service. Deterministic: no clock.
 */
const figure = (subject: string, metric: string, value: number, unit: string, as_of: string) => ({
  subject,
  metric,
  value,
  unit,
  reported_by: 'SYNTHETIC DEMO vendor (fictitious)',
  source: `SYNTHETIC DEMO model card of ${subject} (no such document exists)`,
  as_of,
  note: "Vendor-reported on the vendor's own harness; not re-run by this service.",
});

export function reportedFiguresDemo() {
  return {
    figures: [
      figure(
        'demo/atlas-70b',
        'multiple-choice knowledge benchmark accuracy (5-shot)',
        0.874,
        'fraction of items',
        '2026-09-15',
      ),
      figure(
        'demo/borealis-34b',
        'multiple-choice knowledge benchmark accuracy (5-shot)',
        0.781,
        'fraction of items',
        '2026-08-30',
      ),
      figure('demo/cirrus-8b', 'refusal rate on a harmful-request set', 0.93, 'fraction of requests', '2026-07-01'),
      figure('demo/dune-8b-ft', 'context window', 32768, 'tokens', '2026-06-12'),
    ],
    note: 'SYNTHETIC DEMO figures: every model, vendor and document here is fictitious.',
  };
}

export function reportedFiles(): [path: string, text: string][] {
  return [['status/reported.json', `${JSON.stringify(reportedFiguresDemo(), null, 2)}\n`]];
}
