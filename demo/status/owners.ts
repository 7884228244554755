/**
 * The demo corpus's named owners (`status/owners.json`, read by `/api/insurability-pack`).
 * SYNTHETIC: a fictitious person and a reserved example.org address. Deterministic: no clock.
 */
export function ownersDemo() {
  return {
    measurement_director: 'SYNTHETIC DEMO: A. N. Example, measurement director (fictitious)',
    contact: 'corrections@example.org',
    note: 'SYNTHETIC DEMO owners: no real person or mailbox is named.',
  };
}

export function ownersFiles(): [path: string, text: string][] {
  return [['status/owners.json', `${JSON.stringify(ownersDemo(), null, 2)}\n`]];
}
