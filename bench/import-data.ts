/**
 * Synthetic lm-eval output in the real format (the COPA fixture's shape: lm-eval 0.4.13,
 * `--log_samples`): one model directory with `results_<time>.json` and a
 * `samples_copa_<time>.jsonl` of `rows` lines, two choices per doc, the model's answer the
 * arg-max log-likelihood, `acc` consistent with it and the results file's `acc,none` exact.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const TIME = '2026-10-01T23-15-32.942677';
const MODEL = 'bench/synthetic-1m';

export interface SyntheticRun {
  dir: string;
  samples: string;
  rows: number;
  correct: number;
  bytes: number;
}

export function writeSyntheticRun(root: string, rows: number): SyntheticRun {
  const dir = join(root, 'bench__synthetic-1m');
  mkdirSync(dir, { recursive: true });
  const samples = join(dir, `samples_copa_${TIME}.jsonl`);
  const fd = openSync(samples, 'w');
  let correct = 0;
  let bytes = 0;
  let buf: string[] = [];
  try {
    for (let i = 0; i < rows; i++) {
      const label = i % 2;
      const a = `${i} The man turned on the faucet therefore`;
      const c1 = ` the toilet filled with water ${i % 97}.`;
      const c2 = ` water flowed from the spout ${i % 89}.`;
      const l0 = -70 - ((i * 7919) % 23);
      const l1 = -70 - ((i * 104729) % 29);
      const pick = l1 > l0 ? 1 : 0;
      const acc = pick === label ? 1 : 0;
      correct += acc;
      const doc = { premise: `${a}.`, choice1: c1.trim(), choice2: c2.trim(), question: 'effect', idx: i, label };
      const target = label === 0 ? c1 : c2;
      const hash = createHash('sha256').update(String(i)).digest('hex');
      const line = JSON.stringify({
        doc_id: i,
        doc,
        target,
        arguments: { gen_args_0: { arg_0: a, arg_1: ` ${c1}` }, gen_args_1: { arg_0: a, arg_1: ` ${c2}` } },
        resps: [[[String(l0), 'False']], [[String(l1), 'False']]],
        filtered_resps: [
          [String(l0), 'False'],
          [String(l1), 'False'],
        ],
        filter: 'none',
        metrics: ['acc'],
        doc_hash: hash,
        prompt_hash: hash,
        target_hash: hash,
        acc: acc === 1 ? 1.0 : 0.0,
      });
      buf.push(line, '\n');
      if (buf.length >= 4096) {
        const text = buf.join('');
        bytes += Buffer.byteLength(text);
        writeSync(fd, text);
        buf = [];
      }
    }
    const text = buf.join('');
    bytes += Buffer.byteLength(text);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  writeFileSync(
    join(dir, `results_${TIME}.json`),
    JSON.stringify({
      results: { copa: { 'acc,none': correct / rows } },
      lm_eval_version: '0.4.13',
      model_name: MODEL,
      date: 1790921714.0712206,
    }),
  );
  return { dir, samples, rows, correct, bytes };
}
