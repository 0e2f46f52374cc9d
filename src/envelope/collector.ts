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
  /**
   * Baseline cost in tokens. Set directly by `baseline(method, tokens)`, or
   * settled by the seam from the parts below (settleBaseline in
   * src/tools/baseline.ts) once the handler returned.
   */
  baselineTokens?: number;
  /** Files the baseline reads whole: project id → path → stored size. A file counts once per call. */
  readonly baselineFiles = new Map<string, Map<string, number>>();
  /** Characters of native output the baseline counts besides whole files (grep lines, line ranges). */
  baselineChars = 0;
  /** Whether the baseline has parts still to settle into baselineTokens. */
  baselineOpen = false;
  /** What the savings were deduplicated over: this call only, or the client's session. */
  savingsScope?: 'call' | 'session';
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
    this.baselineOpen = false;
    this.baselineFiles.clear();
    this.baselineChars = 0;
    return this;
  }

  /**
   * Adds parts to this call's baseline under `method`: whole files (each
   * counted once per call, and once per session when the seam knows one) and
   * characters of other native output. The seam settles them into tokens.
   */
  baselineParts(method: BaselineMethod, projectId: string | null, files: readonly { path: string; size: number }[], chars = 0): this {
    if (!this.baselineOpen) {
      this.baselineFiles.clear();
      this.baselineChars = 0;
      this.baselineTokens = undefined;
    }
    this.baselineMethod = method;
    this.baselineOpen = true;
    if (projectId !== null && files.length) {
      const known = this.baselineFiles.get(projectId) ?? new Map<string, number>();
      for (const f of files) known.set(f.path, f.size);
      this.baselineFiles.set(projectId, known);
    }
    this.baselineChars += chars;
    return this;
  }

  scope(project: ProjectScope): this {
    this.project = project;
    return this;
  }

  /** This collector's facts as they stand, to restore when a call is run again (restore). */
  snapshot(): MetaCollector {
    const copy = new MetaCollector();
    copy.restore(this);
    return copy;
  }

  /** Takes over `from`'s facts, dropping everything added since (a stale run's diagnosis, steps, warnings). */
  restore(from: MetaCollector): this {
    for (const key of Object.keys(this)) if (!Object.hasOwn(from, key)) Reflect.deleteProperty(this, key);
    Object.assign(this, from, {
      diagnoses: [...from.diagnoses],
      nextSteps: [...from.nextSteps],
      warnings: [...from.warnings],
      baselineFiles: new Map([...from.baselineFiles].map(([k, v]) => [k, new Map(v)])),
    });
    return this;
  }
}
