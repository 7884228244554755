/**
 * The demo corpus's catalogued census: `status/census.json` and `status/census.jsonl`. Every
 * listing is SYNTHETIC (no hub was read); one id is listed twice, as a paged hub listing can,
 * so the served n_unique_ids (7) differs from the line count (8). No line carries a grade.
 */
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

const listing = (id: string, pipeline_tag: string, lastModified: string) => ({
  id,
  author: id.split('/')[0],
  pipeline_tag,
  lastModified,
  tags: ['synthetic-demo'],
});

const LISTINGS = [
  listing('synthetic-lab/demo-chat-7b', 'text-generation', '2026-01-10T09:00:00.000Z'),
  listing('synthetic-lab/demo-chat-70b', 'text-generation', '2026-01-12T14:30:00.000Z'),
  listing('example-org/demo-embed-small', 'feature-extraction', '2025-12-01T08:15:00.000Z'),
  listing('example-org/demo-classifier', 'text-classification', '2025-11-20T17:45:00.000Z'),
  listing('another-lab/demo-coder-1b', 'text-generation', '2026-01-14T11:00:00.000Z'),
  listing('another-lab/demo-vision-2b', 'image-text-to-text', '2026-01-03T06:20:00.000Z'),
  // The same repo again on the next page: counted once.
  listing('synthetic-lab/demo-chat-7b', 'text-generation', '2026-01-10T09:00:00.000Z'),
  listing('solo-dev/demo-tiny-llm', 'text-generation', '2025-10-05T12:00:00.000Z'),
];

export function censusFiles(): [path: string, text: string][] {
  return [
    [
      'status/census.json',
      json({
        source:
          'SYNTHETIC: shaped like a model-hub listing API (GET /api/models, sorted by lastModified); never fetched by this service',
        as_of: '2026-01-14T11:00:00.000Z',
        as_of_field: 'lastModified',
        pages_done: 2,
        complete: true,
        complete_reason: 'SYNTHETIC: the second demo page had no next-page link, so the listing ended there',
        note: 'SYNTHETIC demo census: every id is invented. A listing is DISCOVERED, never MEASURED; nothing here grades a model.',
      }),
    ],
    ['status/census.jsonl', LISTINGS.map((l) => JSON.stringify(l)).join('\n') + '\n'],
  ];
}
