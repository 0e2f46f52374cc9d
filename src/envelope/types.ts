/**
 * The `_meta` envelope (docs/envelope.md is the field-by-field contract).
 * Every field is optional: a missing field means "not applicable to this
 * call", never 0/false/empty.
 */
export type ComplexityTier = 'lite' | 'standard' | 'heavy';

export type BaselineMethod =
  | 'full_file_read'
  | 'grep_recursive'
  | 'walk_directory'
  | 'read_all_changed'
  | 'lines_read'
  | 'grep_then_read'
  | 'sum_of_parts'
  | 'none';

export type Severity = 'info' | 'warning' | 'error';

/** A typed entry of `warnings_v2` / `diagnosis_v2`. */
export interface TypedEntry {
  code: string;
  severity: Severity;
  message: string;
  data?: Record<string, unknown>;
}

/** An executable suggestion: `args` is an object ready to pass back to `tool`. */
export interface NextStep {
  tool: string;
  args: Record<string, unknown>;
  why: string;
}

export interface BinaryDriftWarning {
  stored_version: number;
  running_version: number;
  remediation: string;
}

export interface Meta {
  request_id?: string;
  client_request_id?: string;
  tokens_used?: number;
  tokens_saved?: number;
  tokens_saved_pct?: number;
  baseline_method?: BaselineMethod;
  savings_scope?: 'call' | 'session';
  complexity_tier?: ComplexityTier;
  latency_ms?: number;
  empty_reason?: string;
  diagnosis?: string;
  diagnosis_v2?: TypedEntry[];
  next_steps?: NextStep[];
  warnings?: string[];
  warnings_v2?: TypedEntry[];
  capabilities?: string[];
  binary_drift_warning?: BinaryDriftWarning;
  schema_version?: number;
  schema_version_at_index?: number;
  project_id?: string;
  project_name?: string;
  session_id?: string;
}

export type MetaKey = keyof Meta;

/** Every top-level key, in the contract's order. */
export const META_KEYS = [
  'request_id',
  'client_request_id',
  'tokens_used',
  'tokens_saved',
  'tokens_saved_pct',
  'baseline_method',
  'savings_scope',
  'complexity_tier',
  'latency_ms',
  'empty_reason',
  'diagnosis',
  'diagnosis_v2',
  'next_steps',
  'warnings',
  'warnings_v2',
  'capabilities',
  'binary_drift_warning',
  'schema_version',
  'schema_version_at_index',
  'project_id',
  'project_name',
  'session_id',
] as const satisfies readonly MetaKey[];
