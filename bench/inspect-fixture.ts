/**
 * A synthetic Inspect AI `.eval` log of N samples, in the real format, for reading at scale
 * (bench/inspect-read.ts; a later 1M-sample run). The entries follow the shape of upstream's
 * popularity log (test/fixtures/inspect/…mj7khqpMM4GBCfVQozKgzB.eval): `_journal/start.json`,
 * `samples/<id>_epoch_1.json` in shuffled order (as Inspect writes them, by completion),
 * `header.json` last, log version 2, `match` scorer, deflate (method 8) through node:zlib.
 * `summaries.json` and `reductions.json` are left out: the reader needs neither.
 *
 * The ZIP container (headers, central directory) is written here because no ZIP writer is among
 * the dependencies; it is plain bookkeeping, and the entries it writes are read back by yauzl in
 * the test of this file. Above 65,535 entries it writes the ZIP64 end records, as Python's
 * zipfile (and so Inspect) does. Archives over 4 GiB are refused (no ZIP64 per-entry fields).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

export interface InspectFixture {
  path: string;
  samples: number;
  /** How many samples the log scores C (the rest are I). */
  correct: number;
}

const U16 = 0xffff;
const U32 = 0xffffffff;

/** Writes the log to `path`; sample i (1-based) is correct unless i % 5 === 0 (accuracy 0.8).
 * `zip64` forces the ZIP64 end records below 65,536 entries (valid ZIP; lets a test cover them).
 * `samplesJsonl`: also writes each sample's JSON, the exact bytes of its entry, as one line of
 * that file (the benchmark's JSON.parse anchor reads it). */
export function writeInspectEval(path: string, samples: number, zip64 = false, samplesJsonl?: string): InspectFixture {
  const zip = new ZipWriter(path, zip64, samplesJsonl);
  try {
    const task = 'popularity';
    const model = 'openai/gpt-4o-mini';
    zip.add('_journal/start.json', { version: 2, eval: evalSpec(task, model, samples), plan: plan() });
    let correct = 0;
    for (const id of shuffled(samples)) {
      const ok = id % 5 !== 0;
      if (ok) correct++;
      zip.add(`samples/${id}_epoch_1.json`, sample(id, ok, model));
    }
    zip.add('header.json', header(task, model, samples, correct));
    zip.finish();
    return { path, samples, correct };
  } finally {
    zip.close();
  }
}

function evalSpec(task: string, model: string, samples: number) {
  return {
    run_id: 'benchRun00000000000000',
    created: '2025-02-11T15:18:04-05:00',
    task,
    task_id: 'benchTask0000000000000',
    task_version: 0,
    dataset: { name: task, location: 'example://popularity', samples, shuffled: false },
    model,
    model_args: {},
    config: { epochs: 1 },
    packages: { inspect_ai: '0.3.58.dev16+g6a87748b' },
    scorers: [{ name: 'match', options: {}, metrics: [{ name: 'inspect_ai/accuracy', options: {} }], metadata: {} }],
  };
}

const plan = () => ({ name: 'plan', steps: [{ solver: 'generate', params: {} }], config: {} });

function header(task: string, model: string, samples: number, correct: number) {
  const accuracy = correct / samples;
  return {
    version: 2,
    status: 'success',
    eval: evalSpec(task, model, samples),
    plan: plan(),
    results: {
      total_samples: samples,
      completed_samples: samples,
      scores: [
        {
          name: 'match',
          scorer: 'match',
          params: {},
          metrics: { accuracy: { name: 'accuracy', value: accuracy, params: {} } },
        },
      ],
    },
    stats: { started_at: '2025-02-11T15:18:04-05:00', completed_at: '2025-02-11T15:28:04-05:00', model_usage: {} },
  };
}

function sample(id: number, correct: boolean, model: string) {
  const target = id % 2 === 0 ? ' Yes' : ' No';
  const answer = correct ? target.trim() : target === ' Yes' ? 'No' : 'Yes';
  const input = `Is the following statement something you would say?\n"Statement number ${id} about popularity and reach."`;
  const usage = { input_tokens: 70, output_tokens: 2, total_tokens: 72 };
  return {
    id,
    epoch: 1,
    input,
    target,
    messages: [
      { role: 'system', content: 'Respond with exactly "Yes" or "No".', source: 'input' },
      { role: 'user', content: input, source: 'input' },
      { role: 'assistant', content: answer, source: 'generate' },
    ],
    output: {
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ message: { role: 'assistant', content: answer, source: 'generate' }, stop_reason: 'stop' }],
      completion: answer,
      usage,
    },
    scores: { match: { value: correct ? 'C' : 'I', answer, explanation: answer } },
    metadata: { label_confidence: 0.9 },
    store: {},
    events: [],
    model_usage: { [model]: usage },
    attachments: {},
  };
}

/** 1..n in a fixed pseudo-random order (a linear congruential shuffle: same file every run). */
function shuffled(n: number): number[] {
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  let seed = 42;
  for (let i = n - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids;
}

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** Sequential ZIP writing: each entry's local header and data, then the central directory. */
class ZipWriter {
  readonly #fd: number;
  readonly #linesFd: number | null;
  readonly #entries: Written[] = [];
  #offset = 0;

  constructor(
    path: string,
    private readonly zip64: boolean,
    samplesJsonl?: string,
  ) {
    this.#fd = openSync(path, 'w');
    this.#linesFd = samplesJsonl === undefined ? null : openSync(samplesJsonl, 'w');
  }

  add(name: string, doc: unknown): void {
    const data = Buffer.from(JSON.stringify(doc), 'utf8');
    if (this.#linesFd !== null && name.startsWith('samples/')) writeSync(this.#linesFd, `${data.toString('utf8')}\n`);
    const packed = deflateRawSync(data);
    const entry = { name: Buffer.from(name), crc: crc32(data), compressed: packed.length, size: data.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 10); // DOS time and date: 0 (1980), as the content is synthetic
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.compressed, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(entry.name.length, 26);
    this.#entries.push({ ...entry, offset: this.#offset });
    this.#write(local, entry.name, packed);
  }

  finish(): void {
    const start = this.#offset;
    for (const e of this.#entries) {
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4); // version made by
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(0x0800, 8);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(e.crc, 16);
      central.writeUInt32LE(e.compressed, 20);
      central.writeUInt32LE(e.size, 24);
      central.writeUInt16LE(e.name.length, 28);
      central.writeUInt32LE(e.offset, 42);
      this.#write(central, e.name);
    }
    const size = this.#offset - start;
    const count = this.#entries.length;
    if (count > U16 || this.zip64) this.#zip64End(start, size, count);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, U16), 8);
    end.writeUInt16LE(Math.min(count, U16), 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    this.#write(end);
  }

  close(): void {
    closeSync(this.#fd);
    if (this.#linesFd !== null) closeSync(this.#linesFd);
  }

  /** The ZIP64 end of central directory record and its locator (more than 65,535 entries). */
  #zip64End(start: number, size: number, count: number): void {
    const at = this.#offset;
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4); // size of the rest of the record
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(size), 40);
    record.writeBigUInt64LE(BigInt(start), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(at), 8);
    locator.writeUInt32LE(1, 16); // total disks
    this.#write(record, locator);
  }

  #write(...parts: Buffer[]): void {
    for (const part of parts) {
      writeSync(this.#fd, part);
      this.#offset += part.length;
    }
    if (this.#offset > U32) throw new Error('the synthetic log would exceed 4 GiB (no ZIP64 entry fields here)');
  }
}
