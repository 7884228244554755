/**
 * A SoftHSM2 token for the PKCS#11 signer tests (issue 30): Debian's `softhsm2` (installed by
 * `npm test` through scripts/ensure-debian.mjs when it can) and the `pkcs11js` binding (an
 * optional dependency, built at install). Without either, the tests skip and say why.
 *
 * SoftHSM reads its configuration from `SOFTHSM2_CONF` when the module is first initialised in a
 * process, so a test file calls `softhsmToken` before anything loads the module; the token's
 * keys are made in a child process, which initialises the module on its own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './repo.js';
import { tempDir } from './tmp.js';

export const SOFTHSM_MODULE = process.env.GSPC_SOFTHSM_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';
const SOFTHSM_UTIL = '/usr/bin/softhsm2-util';

/** Why the PKCS#11 tests cannot run here, or undefined when they can. */
export function softhsmMissing(): string | undefined {
  if (!existsSync(SOFTHSM_MODULE) || !existsSync(SOFTHSM_UTIL))
    return `no SoftHSM2 at ${SOFTHSM_MODULE} (install Debian's softhsm2: apt-get install -y softhsm2; npm test does it when run as root)`;
  try {
    createRequire(join(repoRoot, 'package.json'))('pkcs11js');
  } catch (e) {
    return `the pkcs11js binding does not load (${(e as Error).message.split('\n')[0]}): npm ci builds it with node-gyp`;
  }
  return undefined;
}

/** Makes an Ed25519 key pair labelled `label` on the token, in a child process (CKM_EC_EDWARDS_KEY_PAIR_GEN). */
const KEYGEN = `
const pkcs11js = require('pkcs11js');
const [module, token, pin, ...labels] = process.argv.slice(1);
const p = new pkcs11js.PKCS11();
p.load(module);
p.C_Initialize();
const slot = p.C_GetSlotList(true).find((s) => p.C_GetTokenInfo(s).label.trim() === token);
const session = p.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
p.C_Login(session, pkcs11js.CKU_USER, pin);
const ED25519_OID = Buffer.from('06032b6570', 'hex');
for (const label of labels)
  p.C_GenerateKeyPair(session, { mechanism: 0x1055 },
    [{ type: pkcs11js.CKA_EC_PARAMS, value: ED25519_OID }, { type: pkcs11js.CKA_TOKEN, value: true },
     { type: pkcs11js.CKA_VERIFY, value: true }, { type: pkcs11js.CKA_LABEL, value: label }],
    [{ type: pkcs11js.CKA_TOKEN, value: true }, { type: pkcs11js.CKA_SIGN, value: true }, { type: pkcs11js.CKA_PRIVATE, value: true },
     { type: pkcs11js.CKA_SENSITIVE, value: true }, { type: pkcs11js.CKA_EXTRACTABLE, value: false }, { type: pkcs11js.CKA_LABEL, value: label }]);
p.C_Logout(session); p.C_CloseSession(session); p.C_Finalize();
`;

export interface SoftToken {
  token: string;
  pinFile: string;
  /** The GSPC_* environment that makes gspc sign through this token. */
  env: Record<string, string>;
}

/**
 * A fresh token (its own directory and configuration, set as this process's SOFTHSM2_CONF)
 * holding an Ed25519 key pair for each of `labels`.
 */
export function softhsmToken(labels: readonly string[], o: { token?: string; dir?: string } = {}): SoftToken {
  const token = o.token ?? 'gspc-test';
  // A directory of the caller's (the bench has no test file whose end removes it), else a temporary one.
  const dir = o.dir ?? tempDir();
  mkdirSync(join(dir, 'tokens'));
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  const pin = '246810';
  execFileSync(SOFTHSM_UTIL, ['--init-token', '--free', '--label', token, '--pin', pin, '--so-pin', '13579'], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    stdio: 'ignore',
  });
  execFileSync(process.execPath, ['-e', KEYGEN, SOFTHSM_MODULE, token, pin, ...labels], {
    cwd: repoRoot,
    env: { ...process.env, SOFTHSM2_CONF: conf },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pinFile = join(dir, 'pin');
  writeFileSync(pinFile, `${pin}\n`, { mode: 0o600 });
  return {
    token,
    pinFile,
    env: {
      GSPC_SIGNER: 'pkcs11',
      GSPC_PKCS11_MODULE: SOFTHSM_MODULE,
      GSPC_PKCS11_TOKEN: token,
      GSPC_PKCS11_PIN_FILE: pinFile,
    },
  };
}
