/**
 * One runtime rule of a tool, as the rule inventory records it: the phrase
 * that must appear in the provider-visible description of `param` (or of the
 * tool when param is '*'), and a call that exercises the rule at runtime.
 */
export interface Rule {
  tool: string;
  /** Parameter whose description states the rule; '*' for the tool description. */
  param: string;
  /** Case-insensitive key phrase that must be present in that description. */
  phrase: string;
  /** Arguments that exercise the rule (usually violate it). */
  args: Record<string, unknown>;
  /** What the runtime must do with them. */
  expect: { error: string } | { warning: string } | { ok: true };
  /** Optional setup: a project to push first ({path: content}). */
  project?: { name: string; files: Record<string, string> };
}
