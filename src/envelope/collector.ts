import type { BaselineMethod, NextStep, Severity, TypedEntry } from './types';
import type { EmptyReason } from './empty-reasons';

export interface ProjectScope {
  id: string;
  name: string;
  schemaVersionAtIndex: number | null;
}

/**
 * What a handler (or the seam around it) reports about one call. Handlers
 * never build `_meta`; they add facts here and the producers turn them into
 * envelope keys after the handler returns.
 */
export class MetaCollector {
  emptyReason?: EmptyReason;
  diagnosis?: string;
  readonly diagnoses: TypedEntry[] = [];
  readonly nextSteps: NextStep[] = [];
  readonly warnings: TypedEntry[] = [];
  baselineMethod?: BaselineMethod;
  /** Baseline cost in tokens, computed by the handler for its baseline method. */
  baselineTokens?: number;
  project?: ProjectScope;
  sessionId?: string;

  /** Marks the result empty, with the catalog code and a sentence the model can act on. */
  empty(reason: EmptyReason, diagnosis: string, data?: Record<string, unknown>): this {
    this.emptyReason = reason;
    this.diagnosis = diagnosis;
    this.diagnoses.push({ code: reason, severity: 'warning', message: diagnosis, ...(data ? { data } : {}) });
    return this;
  }

  diagnose(code: string, severity: Severity, message: string, data?: Record<string, unknown>): this {
    this.diagnoses.push({ code, severity, message, ...(data ? { data } : {}) });
    return this;
  }

  warn(code: string, message: string, data?: Record<string, unknown>, severity: Severity = 'warning'): this {
    this.warnings.push({ code, severity, message, ...(data ? { data } : {}) });
    return this;
  }

  next(tool: string, args: Record<string, unknown>, why: string): this {
    const key = tool + JSON.stringify(args);
    if (!this.nextSteps.some((s) => s.tool + JSON.stringify(s.args) === key)) {
      this.nextSteps.push({ tool, args, why });
    }
    return this;
  }

  /** Declares what answering without this tool would have cost, in tokens. */
  baseline(method: BaselineMethod, tokens?: number): this {
    this.baselineMethod = method;
    this.baselineTokens = tokens;
    return this;
  }

  scope(project: ProjectScope): this {
    this.project = project;
    return this;
  }
}
