/**
 * The /gspc-verify script: checks cards and offers/receipts in this browser with WebCrypto and
 * the one shared verifier (src/core/verify, the same module `gspc verify` and POST /api/verify
 * run). It reads this origin's public files (the DID document, /root.json, the ledgers, the card
 * log, cards and their proofs) and the keys at the DID's host (verify-keys.ts: the same origin
 * when this page is served by the host), and never asks the server for a verdict: no request
 * goes to /api/verify or /api/receipts/verify. Keys that cannot be anchored at the DID's host
 * make nothing VALID: UNVERIFIABLE_KEY.
 */
import { verifyCard } from '../../core/verify/card-verifier.js';
import { anchoredVerdict } from '../../core/verify/key-source.js';
import {
  anchoredKeysOf,
  contextForBundle,
  cardsOfDocument,
  loadServiceContext,
  verifyCards,
  type PublicFiles,
  type ServiceContext,
} from '../../core/verify/service-context.js';
import { didDocumentResolver, verifyCompactJwsWith } from '../../core/crypto/jws-verifier.js';
import { kindOf } from '../../core/crypto/offer-receipt-kind.js';
import { keysAtHost, PAGE_HINT } from './verify-keys.js';
import { primitivesWork, webVerifyCrypto } from '../../core/verify/web-crypto.js';
import type { VerifyCrypto } from '../../core/crypto/verify-crypto.js';
import { count, showBundle, showBusy, showCard, showError, showJws } from './verify-render.js';
import { checkTlogProof } from './verify-tlog.js';

const CARD_ID = /^([0-9a-f]{16}|[0-9a-f]{64})$/;
/** Cards in flight at once: WebCrypto digests and verifies off the main thread. */
const CONCURRENCY = 16;

/** This origin's public files; 404 means "not published". */
const files: PublicFiles = {
  async get(path) {
    const r = await fetch(path, {
      credentials: 'same-origin',
      cache: 'no-cache',
      headers: { accept: 'application/json, text/plain;q=0.9' },
    });
    if (r.status === 404) return undefined;
    if (!r.ok) throw new Error(`GET ${path} answered HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  },
};

let service: Promise<ServiceContext> | undefined;
/** Loaded once per page: the public files do not change while a reader checks several cards. */
function serviceContext(crypto: VerifyCrypto): Promise<ServiceContext> {
  service ??= loadServiceContext(files, crypto, { keysAt: keysAtHost, hint: PAGE_HINT }).catch((e: unknown) => {
    service = undefined;
    throw e;
  });
  return service;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function checkCards(
  crypto: VerifyCrypto,
  box: HTMLElement,
  text: string,
  source: string,
  t0: number,
): Promise<void> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    showError(box, `That is not JSON (${message(e)}). Paste a card, a cards bundle or a list of cards.`);
    return;
  }
  const input = cardsOfDocument(doc);
  if (input.kind === 'error') {
    showError(box, `Nothing to check: ${input.reason}.`);
    return;
  }
  const progress = showBusy(box, `Reading the DID document, the signed root, the ledgers and the card log…`);
  const svc = await serviceContext(crypto);
  const anchor = svc.anchor;
  if (input.kind === 'card') {
    const checked = await verifyCard(input.cards[0], svc.context, crypto);
    const verdict = anchor ? anchoredVerdict(checked, anchor) : checked;
    showCard(box, input.cards[0], verdict, svc.checks, performance.now() - t0, source);
    return;
  }
  const total = input.cards.length;
  progress.textContent = `Recomputing the root from ${count(total)} cards…`;
  const bundle = await contextForBundle(svc, input.cards, crypto);
  const checked = await verifyCards(input.cards, bundle.context, crypto, {
    concurrency: CONCURRENCY,
    onProgress: (done) => {
      progress.textContent = `Checked ${count(done)} of ${count(total)} cards…`;
    },
  });
  const verdicts = anchor ? checked.map((v) => anchoredVerdict(v, anchor)) : checked;
  showBundle(box, input.cards, verdicts, [...svc.checks, bundle.check], performance.now() - t0, source);
}

async function checkById(crypto: VerifyCrypto, box: HTMLElement, id: string): Promise<void> {
  const t0 = performance.now();
  if (!CARD_ID.test(id)) {
    showError(box, 'A card id is the first 16 hex characters of its sha256, or all 64 (lower case).');
    return;
  }
  const id16 = id.slice(0, 16);
  showBusy(box, `Reading /cards/${id16}.json…`);
  const bytes = await files.get(`/cards/${id16}.json`);
  if (bytes === undefined) {
    showError(box, `No card with id ${id} is published on this origin (/cards/index.json lists them).`);
    return;
  }
  const text = new TextDecoder().decode(bytes);
  if (id.length === 64) {
    const sha = (JSON.parse(text) as { sha256?: unknown }).sha256;
    if (sha !== id) {
      showError(box, `The card published at /cards/${id16}.json has sha256 ${String(sha)}, not ${id}.`);
      return;
    }
  }
  await checkCards(crypto, box, text, `read from /cards/${id16}.json on this origin`, t0);
}

async function checkJws(crypto: VerifyCrypto, box: HTMLElement, text: string): Promise<void> {
  const t0 = performance.now();
  const jws = text.trim();
  if (jws === '') {
    showError(box, 'Paste a compact JWS: three base64url parts separated by dots.');
    return;
  }
  if (jws.length > 64 * 1024) {
    showError(box, 'The JWS is longer than 64 KiB.');
    return;
  }
  showBusy(box, 'Reading the DID document at the DID’s host…');
  // Only the keys are needed: the transitions' log positions do not matter to a JWS.
  const keys = await anchoredKeysOf(files, crypto, keysAtHost, [], PAGE_HINT);
  const v = await verifyCompactJwsWith(jws, didDocumentResolver(keys.docs.didDocument), crypto);
  // An offer and a receipt are signed alike: only the payload's fields tell them apart, and an
  // offer proves no payment (issue 37). One that is neither is not VALID as either.
  const kind = v.result === 'VALID' ? kindOf(v.payload) : undefined;
  const anchored =
    v.result === 'VALID' && kind === 'unknown'
      ? {
          result: 'INVALID' as const,
          reason:
            'the signature verifies, but the payload is neither an offer nor a receipt of the offer-receipt extension',
          ...(v.header && { header: v.header }),
        }
      : v.result === 'VALID' && !keys.anchor.ok
        ? {
            result: keys.anchor.state,
            reason: `key_anchor: ${keys.anchor.detail}`,
            ...(v.header && { header: v.header }),
          }
        : v;
  showJws(box, anchored, performance.now() - t0, kind);
}

/** Runs one check at a time per result box; a failure of the page itself is shown, not thrown. */
function guarded(box: HTMLElement, run: () => Promise<void>): void {
  if (box.dataset.state === 'busy') return;
  run().catch((e: unknown) =>
    showError(box, `The check could not finish: ${message(e)}. Reload the page, or run gspc verify.`),
  );
}

async function main(): Promise<void> {
  const box = document.getElementById('verify-result') as HTMLElement;
  const jwsBox = document.getElementById('jws-result') as HTMLElement;
  const byId = document.getElementById('verify-id') as HTMLFormElement;
  const paste = document.getElementById('verify-paste') as HTMLFormElement;
  const jwsForm = document.getElementById('verify-jws') as HTMLFormElement;
  const idInput = document.getElementById('card-id') as HTMLInputElement;
  const jsonInput = document.getElementById('card-json') as HTMLTextAreaElement;
  const fileInput = document.getElementById('card-file') as HTMLInputElement;
  const dropZone = document.getElementById('drop-zone') as HTMLElement;
  const served = document.getElementById('verify-served') as HTMLButtonElement;
  const jwsInput = document.getElementById('jws-text') as HTMLTextAreaElement;
  document.documentElement.classList.add('js');

  const subtle = globalThis.crypto?.subtle;
  const crypto = subtle ? webVerifyCrypto(subtle as never) : undefined;
  if (!crypto || !(await primitivesWork(crypto))) {
    const why = subtle
      ? 'this browser’s WebCrypto cannot verify Ed25519 signatures'
      : 'this browser offers no WebCrypto here (a page served over plain http, other than from localhost, gets none)';
    showError(box, `This page cannot check anything: ${why}. Use a current browser over https, or run gspc verify.`);
    document.body.dataset.verifyReady = 'unsupported';
    return;
  }

  const fromFile = (file: File) =>
    guarded(box, async () => {
      const t0 = performance.now();
      showBusy(box, `Reading ${file.name}…`);
      await checkCards(crypto, box, await file.text(), `from the file ${file.name} (${count(file.size)} bytes)`, t0);
    });

  byId.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const id = idInput.value.trim();
    if (CARD_ID.test(id)) history.replaceState(null, '', `?id=${id}`);
    guarded(box, () => checkById(crypto, box, id));
  });
  paste.addEventListener('submit', (ev) => {
    ev.preventDefault();
    guarded(box, () => checkCards(crypto, box, jsonInput.value, 'pasted', performance.now()));
  });
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file) fromFile(file);
  });
  // The whole paste form takes a dropped file; the drop zone shows where.
  for (const type of ['dragenter', 'dragover'] as const) {
    paste.addEventListener(type, (ev) => {
      ev.preventDefault();
      dropZone.classList.add('over');
    });
  }
  paste.addEventListener('dragleave', (ev) => {
    if (!paste.contains(ev.relatedTarget as Node | null)) dropZone.classList.remove('over');
  });
  paste.addEventListener('drop', (ev) => {
    ev.preventDefault();
    dropZone.classList.remove('over');
    const file = ev.dataTransfer?.files[0];
    if (file) fromFile(file);
  });
  served.addEventListener('click', () =>
    guarded(box, async () => {
      const t0 = performance.now();
      showBusy(box, 'Reading /cards-bundle.json…');
      const bytes = await files.get('/cards-bundle.json');
      if (bytes === undefined) {
        showError(box, 'This origin publishes no /cards-bundle.json.');
        return;
      }
      await checkCards(
        crypto,
        box,
        new TextDecoder().decode(bytes),
        'every published card, read from /cards-bundle.json on this origin',
        t0,
      );
    }),
  );
  jwsForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    guarded(jwsBox, () => checkJws(crypto, jwsBox, jwsInput.value));
  });
  const tlogBox = document.getElementById('tlog-result') as HTMLElement;
  const tlogForm = document.getElementById('verify-tlog') as HTMLFormElement;
  tlogForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const card = (document.getElementById('tlog-card') as HTMLInputElement).value.trim();
    const text = (document.getElementById('tlog-text') as HTMLTextAreaElement).value;
    guarded(tlogBox, () => checkTlogProof(crypto, files, tlogBox, card, text));
  });

  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-needs-script]')) b.disabled = false;
  document.body.dataset.verifyReady = 'true';

  // /gspc-verify?id=<card>: the server named the card; check it now.
  const config = JSON.parse(document.getElementById('verify-config')?.textContent ?? '{}') as { id?: string | null };
  if (typeof config.id === 'string') guarded(box, () => checkById(crypto, box, config.id as string));
}

void main();
