/**
 * The demo corpus's east-west groups (`status/east-west.json`, served derived at
 * `/api/east-west-bench`). SYNTHETIC: the demo models are fictitious and the split is arbitrary,
 * chosen so the bench shows SEPARATED, TIE and UNTESTED rows. Deterministic: no clock.
 */
export function eastWestDemo() {
  return {
    groups: {
      east: ['demo/borealis-34b', 'demo/dune-8b-ft'],
      west: ['demo/atlas-70b', 'demo/cirrus-8b'],
    },
    basis:
      'SYNTHETIC DEMO grouping: the demo models are fictitious and this east/west split is arbitrary; it states nothing about any real vendor, country or model.',
  };
}

export function east_westFiles(): [path: string, text: string][] {
  return [['status/east-west.json', `${JSON.stringify(eastWestDemo(), null, 2)}\n`]];
}
