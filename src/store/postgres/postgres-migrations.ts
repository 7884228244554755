import type { Migration } from '../migration.js';

/**
 * PostgreSQL schema steps; same versions and meaning as sqlite-migrations.ts. Amounts are
 * NUMERIC(78, 0) (exact, fits uint256, can be summed for revenue; read back as text); times
 * are the ISO text the caller passed, so both backends return the same bytes; artefacts BYTEA.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'settlements, settlement events and invoices; nothing deleted',
    sql: `
CREATE TABLE settlements (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payer           TEXT NOT NULL,
  nonce           TEXT NOT NULL,
  product_id      TEXT NOT NULL,
  sku_id          TEXT NOT NULL,
  resource        TEXT NOT NULL,
  amount_atomic   NUMERIC(78, 0) NOT NULL CHECK (amount_atomic >= 0),
  asset           TEXT NOT NULL,
  network         TEXT NOT NULL,
  pay_to          TEXT NOT NULL,
  payment_sha256  TEXT NOT NULL,
  self_funded     BOOLEAN NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('RESERVED', 'SETTLED', 'FAILED', 'UNKNOWN')),
  attempts        INTEGER NOT NULL CHECK (attempts >= 1),
  transaction_ref TEXT,
  error           TEXT,
  artefact        BYTEA,
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
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ref             TEXT NOT NULL UNIQUE,
  product_id      TEXT NOT NULL,
  sku_id          TEXT NOT NULL,
  resource        TEXT NOT NULL,
  commissioned_by TEXT NOT NULL,
  amount_atomic   NUMERIC(78, 0) NOT NULL CHECK (amount_atomic >= 0),
  currency        TEXT NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('ISSUED', 'PAID')),
  created_at      TEXT NOT NULL,
  paid_at         TEXT,
  CHECK ((state = 'PAID') = (paid_at IS NOT NULL))
);

-- Audit records are never deleted, and history lines never change.
CREATE FUNCTION gspc_ledger_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger %: % is not allowed (nothing is deleted; history is append-only)', TG_TABLE_NAME, TG_OP;
END $$;
CREATE TRIGGER settlements_keep BEFORE DELETE OR TRUNCATE ON settlements
  FOR EACH STATEMENT EXECUTE FUNCTION gspc_ledger_refuse();
CREATE TRIGGER invoices_keep BEFORE DELETE OR TRUNCATE ON invoices
  FOR EACH STATEMENT EXECUTE FUNCTION gspc_ledger_refuse();
CREATE TRIGGER settlement_events_keep BEFORE UPDATE OR DELETE OR TRUNCATE ON settlement_events
  FOR EACH STATEMENT EXECUTE FUNCTION gspc_ledger_refuse();
`,
  },
  {
    version: 2,
    name: 'settlements keep the authorization validBefore; invoices carry the artefact they release',
    // Existing rows get NULL: their validBefore was never recorded, and they carry no artefact.
    // validBefore is a uint256 like amounts, so NUMERIC(78, 0), read back as text.
    sql: `
ALTER TABLE settlements ADD COLUMN valid_before NUMERIC(78, 0) CHECK (valid_before >= 0);
ALTER TABLE invoices
  ADD COLUMN artefact BYTEA,
  ADD COLUMN artefact_sha256 TEXT,
  ADD COLUMN receipt TEXT,
  ADD CONSTRAINT invoices_artefact_hashed CHECK ((artefact IS NULL) = (artefact_sha256 IS NULL)),
  ADD CONSTRAINT invoices_receipt_with_artefact CHECK (receipt IS NULL OR artefact IS NOT NULL);
`,
  },
  {
    version: 3,
    name: 'action-job receipt chain and oracle-fleet heartbeats; both append-only',
    // Receipts keep their canonical text as written (the chain hashes those bytes); seq is the
    // chain position, so a second writer on the same head collides on the key instead of forking.
    // gspc_ledger_refuse() is version 1's trigger function.
    sql: `
CREATE TABLE action_receipts (
  seq     BIGINT PRIMARY KEY CHECK (seq >= 1),
  job_id  TEXT NOT NULL,
  sha256  TEXT NOT NULL CHECK (length(sha256) = 64),
  body    TEXT NOT NULL
);
CREATE INDEX action_receipts_job ON action_receipts (job_id, seq);

CREATE TABLE heartbeats (
  id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source  TEXT NOT NULL,
  at      TEXT NOT NULL,
  note    TEXT
);
CREATE INDEX heartbeats_source ON heartbeats (source, id);

CREATE TRIGGER action_receipts_keep BEFORE UPDATE OR DELETE OR TRUNCATE ON action_receipts
  FOR EACH STATEMENT EXECUTE FUNCTION gspc_ledger_refuse();
CREATE TRIGGER heartbeats_keep BEFORE UPDATE OR DELETE OR TRUNCATE ON heartbeats
  FOR EACH STATEMENT EXECUTE FUNCTION gspc_ledger_refuse();
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
