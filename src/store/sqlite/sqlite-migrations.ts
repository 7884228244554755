import type { Migration } from '../migration.js';

/**
 * SQLite schema steps; same versions and meaning as postgres-migrations.ts. Amounts are TEXT
 * (uint256 does not fit SQLite's 64-bit INTEGER, and REAL would round); times are the ISO text
 * the caller passed, so they round-trip byte for byte; artefacts are BLOBs.
 */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'settlements, settlement events and invoices; nothing deleted',
    sql: `
CREATE TABLE settlements (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  payer           TEXT NOT NULL,
  nonce           TEXT NOT NULL,
  product_id      TEXT NOT NULL,
  sku_id          TEXT NOT NULL,
  resource        TEXT NOT NULL,
  amount_atomic   TEXT NOT NULL CHECK (amount_atomic <> '' AND amount_atomic NOT GLOB '*[^0-9]*'),
  asset           TEXT NOT NULL,
  network         TEXT NOT NULL,
  pay_to          TEXT NOT NULL,
  payment_sha256  TEXT NOT NULL,
  self_funded     INTEGER NOT NULL CHECK (self_funded IN (0, 1)),
  state           TEXT NOT NULL CHECK (state IN ('RESERVED', 'SETTLED', 'FAILED', 'UNKNOWN')),
  attempts        INTEGER NOT NULL CHECK (attempts >= 1),
  transaction_ref TEXT,
  error           TEXT,
  artefact        BLOB,
  artefact_sha256 TEXT,
  receipt         TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (payer, nonce),
  CHECK (state <> 'SETTLED' OR transaction_ref IS NOT NULL),
  CHECK ((artefact IS NULL) = (artefact_sha256 IS NULL))
);
CREATE INDEX settlements_state ON settlements (state, id);

CREATE TABLE settlement_events (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  payer           TEXT NOT NULL,
  nonce           TEXT NOT NULL,
  from_state      TEXT,
  to_state        TEXT NOT NULL,
  attempt         INTEGER NOT NULL,
  transaction_ref TEXT,
  error           TEXT,
  at              TEXT NOT NULL,
  FOREIGN KEY (payer, nonce) REFERENCES settlements (payer, nonce)
);
CREATE INDEX settlement_events_key ON settlement_events (payer, nonce, id);

CREATE TABLE invoices (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  ref             TEXT NOT NULL UNIQUE,
  product_id      TEXT NOT NULL,
  sku_id          TEXT NOT NULL,
  resource        TEXT NOT NULL,
  commissioned_by TEXT NOT NULL,
  amount_atomic   TEXT NOT NULL CHECK (amount_atomic <> '' AND amount_atomic NOT GLOB '*[^0-9]*'),
  currency        TEXT NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('ISSUED', 'PAID')),
  created_at      TEXT NOT NULL,
  paid_at         TEXT,
  CHECK ((state = 'PAID') = (paid_at IS NOT NULL))
);

-- Audit records are never deleted, and history lines never change.
CREATE TRIGGER settlements_keep BEFORE DELETE ON settlements
  BEGIN SELECT RAISE(ABORT, 'ledger settlements are never deleted'); END;
CREATE TRIGGER invoices_keep BEFORE DELETE ON invoices
  BEGIN SELECT RAISE(ABORT, 'ledger invoices are never deleted'); END;
CREATE TRIGGER settlement_events_keep BEFORE DELETE ON settlement_events
  BEGIN SELECT RAISE(ABORT, 'ledger history is append-only'); END;
CREATE TRIGGER settlement_events_frozen BEFORE UPDATE ON settlement_events
  BEGIN SELECT RAISE(ABORT, 'ledger history is append-only'); END;
`,
  },
  {
    version: 2,
    name: 'settlements keep the authorization validBefore; invoices carry the artefact they release',
    // Existing rows get NULL: their validBefore was never recorded, and they carry no artefact.
    sql: `
ALTER TABLE settlements ADD COLUMN valid_before TEXT
  CHECK (valid_before IS NULL OR (valid_before <> '' AND valid_before NOT GLOB '*[^0-9]*'));
ALTER TABLE invoices ADD COLUMN artefact BLOB;
ALTER TABLE invoices ADD COLUMN artefact_sha256 TEXT CHECK ((artefact IS NULL) = (artefact_sha256 IS NULL));
ALTER TABLE invoices ADD COLUMN receipt TEXT CHECK (receipt IS NULL OR artefact IS NOT NULL);
`,
  },
  {
    version: 3,
    name: 'action-job receipt chain and oracle-fleet heartbeats; both append-only',
    // Receipts keep their canonical text as written (the chain hashes those bytes); seq is the
    // chain position, so a second writer on the same head collides on the key instead of forking.
    sql: `
CREATE TABLE action_receipts (
  seq     INTEGER PRIMARY KEY CHECK (seq >= 1),
  job_id  TEXT NOT NULL,
  sha256  TEXT NOT NULL CHECK (length(sha256) = 64),
  body    TEXT NOT NULL
);
CREATE INDEX action_receipts_job ON action_receipts (job_id, seq);

CREATE TABLE heartbeats (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  source  TEXT NOT NULL,
  at      TEXT NOT NULL,
  note    TEXT
);
CREATE INDEX heartbeats_source ON heartbeats (source, id);

CREATE TRIGGER action_receipts_keep BEFORE DELETE ON action_receipts
  BEGIN SELECT RAISE(ABORT, 'action-job receipts are append-only'); END;
CREATE TRIGGER action_receipts_frozen BEFORE UPDATE ON action_receipts
  BEGIN SELECT RAISE(ABORT, 'action-job receipts are append-only'); END;
CREATE TRIGGER heartbeats_keep BEFORE DELETE ON heartbeats
  BEGIN SELECT RAISE(ABORT, 'heartbeats are append-only'); END;
CREATE TRIGGER heartbeats_frozen BEFORE UPDATE ON heartbeats
  BEGIN SELECT RAISE(ABORT, 'heartbeats are append-only'); END;
`,
  },
  {
    version: 4,
    name: 'invoices keep the hash of the request that issued them; one open invoice per request',
    // Existing invoices get NULL: they are never matched as a repeated request.
    sql: `
ALTER TABLE invoices ADD COLUMN request_sha256 TEXT CHECK (request_sha256 IS NULL OR length(request_sha256) = 64);
CREATE UNIQUE INDEX invoices_open_request ON invoices (request_sha256)
  WHERE state = 'ISSUED' AND request_sha256 IS NOT NULL;
`,
  },
  {
    version: 5,
    name: 'settlements keep the hash of the payment-identifier id that may have the artefact again',
    // Existing rows get NULL: their artefact is delivered again to no one (decision P42).
    sql: `
ALTER TABLE settlements ADD COLUMN payment_id_sha256 TEXT
  CHECK (payment_id_sha256 IS NULL OR length(payment_id_sha256) = 64);
CREATE INDEX settlements_payment_id ON settlements (payment_id_sha256) WHERE payment_id_sha256 IS NOT NULL;
`,
  },
  {
    version: 6,
    name: 'one payment per payment-identifier id: two new payments racing under one id cannot both reserve',
    // The id is the purchase (decision P42): a second payment under it was refused only by a read
    // before the insert, which two racing requests both passed. An id already on several rows
    // (only that race made them) stays with the first; the later rows lose it, and their buyer
    // has its artefact again by signing in with the paying wallet (decision P45).
    sql: `
UPDATE settlements SET payment_id_sha256 = NULL
  WHERE payment_id_sha256 IS NOT NULL
    AND id NOT IN (SELECT MIN(id) FROM settlements WHERE payment_id_sha256 IS NOT NULL GROUP BY payment_id_sha256);
DROP INDEX settlements_payment_id;
CREATE UNIQUE INDEX settlements_payment_id ON settlements (payment_id_sha256) WHERE payment_id_sha256 IS NOT NULL;
`,
  },
];
