/**
 * `gspc witness --network-entry <url>`: the entry an operator files to have the card log listed
 * by the public witness network (transparency-dev/witness-network, log-list-format.md, `logs/v0`):
 * `vkey`, `origin` only when it is not the vkey's name, `qpd` and `contact`. The vkey is read from
 * the operator's own service (`<url>/log/vkey`) and the served checkpoint must verify under it, so
 * the entry is one a witness can use: a key that signs this log's checkpoints, under its origin.
 * Run by the operator against their own URL; the service itself never fetches a URL for this.
 */
import { GspcError } from '../core/errors.js';
import { SIG_TYPE_ED25519 } from '../core/evidence/note/signed-note.js';
import { parseVerifierKey } from '../core/evidence/note/verifier-key.js';
import { verifyCheckpointNote } from '../core/verify/log-proof.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';
import { urlSource } from '../verify/release-source.js';

export interface NetworkEntryOptions {
  /** add-checkpoint requests the log may send a witness per day (the list's `qpd`). */
  qpd: string;
  /** How the list's maintainers and witness operators reach the log's operator. */
  contact: string;
}

/** log-list-format.md: `qpd` is in [1, 2^31), ASCII decimal, no leading zeroes. */
const QPD = /^[1-9][0-9]{0,9}$/;

export async function networkEntry(url: string, o: NetworkEntryOptions): Promise<string> {
  if (!/^https?:\/\/[^/]+/.test(url)) throw new GspcError('config_invalid', `--network-entry ${url}: an http(s) URL`);
  if (!QPD.test(o.qpd) || Number(o.qpd) >= 2 ** 31)
    throw new GspcError('config_invalid', `--qpd ${o.qpd}: a whole number of requests a day, 1 to 2147483647`);
  // The list is line-based: a line break would start another key; a control character is refused too.
  if (o.contact.trim() === '' || /\p{Cc}/u.test(o.contact))
    throw new GspcError('config_invalid', '--contact: one line of text (an address or a URL)');
  const src = urlSource(url);
  const vkeyText = (await src.get('/log/vkey'))?.toString('utf8').trim();
  if (vkeyText === undefined) throw new GspcError('release_not_found', `${url} serves no /log/vkey (an unsigned log?)`);
  const vkey = parseVerifierKey(vkeyText);
  if (!vkey.ok) throw new GspcError('release_invalid', `${url}/log/vkey is not a C2SP vkey: ${vkey.reason}`);
  // The list accepts Ed25519 note keys (type 0x01) only.
  if (vkey.key.type !== SIG_TYPE_ED25519)
    throw new GspcError('release_invalid', `${url}/log/vkey is not an Ed25519 note key (type 0x01)`);
  const note = (await src.get('/log/checkpoint'))?.toString('utf8');
  if (note === undefined) throw new GspcError('release_not_found', `${url} serves no /log/checkpoint`);
  const origin = vkey.key.name;
  const opened = await verifyCheckpointNote(nodeVerifyCrypto, note, origin, vkey.key.publicKey);
  if (!opened.ok)
    throw new GspcError(
      'release_invalid',
      `${url}/log/checkpoint does not verify under ${url}/log/vkey (origin ${origin}): ${opened.detail}`,
    );
  const prefix = `${new URL(url).host}/log`;
  return [
    `# The card log ${origin}: checkpoint of size ${opened.size} verified under ${url}/log/vkey.`,
    ...(prefix === origin
      ? []
      : [`# Its origin is not ${prefix}: read from a mirror or replica, or published for another URL.`]),
    '# Send to participate (at) lists.witness-network.org, saying which list (testing or staging).',
    'logs/v0',
    '',
    `vkey ${vkeyText}`,
    // The origin line is left out: it is the vkey's name, which the list then takes as the origin.
    `qpd ${o.qpd}`,
    `contact ${o.contact.trim()}`,
  ].join('\n');
}
