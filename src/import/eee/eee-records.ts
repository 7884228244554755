/**
 * The parts of the Every Eval Ever records (schema v0.3.0) that the reader and `gspc export eee`
 * use, typed after `schemas/every-eval-ever/`. The schema is the authority: records are validated
 * against it before these types are trusted.
 */

export interface EeeAttribution {
  turn_idx: number;
  source: string;
  extracted_value: string;
  /** e.g. `regex`, `exact_match`, `llm_judge`, `custom`. */
  extraction_method: string;
  is_terminal: boolean;
}

export interface EeeInstance {
  schema_version: string;
  evaluation_id: string;
  model_id: string;
  evaluation_name: string;
  evaluation_result_id?: string;
  sample_id: string;
  sample_hash?: string | null;
  interaction_type: 'single_turn' | 'multi_turn' | 'agentic';
  input: { raw: string; formatted?: string | null; reference: string[]; choices?: string[] | null };
  output?: { raw: string[]; reasoning_trace?: string[] | null } | null;
  messages?: { turn_idx: number; role: string; content?: string | null }[] | null;
  answer_attribution: EeeAttribution[];
  evaluation: { score: number; is_correct: boolean; num_turns?: number | null; tool_calls_count?: number | null };
  /** Schema: integers ≥ 0, all three required when the object is present. */
  token_usage?: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  /** Schema: milliseconds ≥ 0, each nullable. */
  performance?: { latency_ms?: number | null } | null;
  error?: string | null;
  metadata?: Record<string, string> | null;
}

export interface EeeMetricConfig {
  evaluation_description?: string;
  metric_id?: string;
  metric_name?: string;
  metric_kind?: string;
  metric_unit?: string;
  lower_is_better: boolean;
  score_type?: 'binary' | 'continuous' | 'levels';
  min_score?: number | null;
  max_score?: number | null;
  llm_scoring?: unknown;
}

export interface EeeResult {
  evaluation_result_id?: string;
  evaluation_name: string;
  source_data: { dataset_name: string; source_type: 'url'; url: string[]; additional_details?: Record<string, string> };
  metric_config: EeeMetricConfig;
  score_details: {
    score: number;
    details?: Record<string, string>;
    uncertainty?: {
      confidence_interval?: { lower: number; upper: number; confidence_level?: number; method?: string };
      num_samples?: number;
    };
  };
}

export interface EeeAggregate {
  schema_version: string;
  evaluation_id: string;
  evaluation_timestamp?: string;
  retrieved_timestamp: string;
  source_metadata: {
    source_name?: string;
    source_type: 'documentation' | 'evaluation_run';
    source_organization_name: string;
    evaluator_relationship: 'first_party' | 'third_party' | 'collaborative' | 'other';
    additional_details?: Record<string, string>;
  };
  eval_library: { name: string; version: string; additional_details?: Record<string, string> };
  model_info: { name: string; id: string; developer?: string; additional_details: Record<string, string> };
  evaluation_results: EeeResult[];
  detailed_evaluation_results?: {
    format: 'jsonl';
    file_path: string;
    hash_algorithm?: 'sha256' | 'md5';
    checksum?: string;
    total_rows?: number;
  };
}

/**
 * The metadata key `gspc export eee` writes with the board's item id, so that importing the
 * export gives back the same item ids (sample ids are otherwise namespaced by evaluation name).
 */
export const GSPC_ITEM_KEY = 'gspc_item';
