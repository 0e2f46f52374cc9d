/**
 * The `empty_reason` catalog (docs/empty-reasons.md mirrors it). Every code
 * has a firing condition that happens in this product, a recovery action in
 * plain words and recovery steps the server would itself execute.
 */
export const EMPTY_REASONS = [
  'no_project_indexed',
  'stale_index',
  'unsupported_language',
  'low_confidence_extractor',
  'same_file_only',
  'cross_file_unavailable',
  'query_too_narrow',
  'no_results_in_corpus',
  'cap_dropped_all',
  'incremental_no_change',
  'all_files_blocked',
  'extractor_emitted_nothing',
  'target_not_resolved',
] as const;

export type EmptyReason = (typeof EMPTY_REASONS)[number];

/** A recovery step template; `project` is filled in when the caller named one. */
export interface RecoveryStep {
  tool: string;
  args: Record<string, unknown>;
  why: string;
}

export interface EmptyReasonEntry {
  code: EmptyReason;
  title: string;
  fires_when: string;
  recovery: string;
  steps: RecoveryStep[];
}

export const EMPTY_REASON_CATALOG: Record<EmptyReason, EmptyReasonEntry> = {
  no_project_indexed: {
    code: 'no_project_indexed',
    title: 'No project indexed',
    fires_when:
      "The project argument (or the URL's ?project= pin) names no project pushed to this server, or the call needs a project and none was given.",
    recovery:
      'Call list to see the indexed projects and pass one as project. If yours is missing, push it from CI with `npx --yes <server>/v1/cli.tgz push --project NAME` (or call index with files).',
    steps: [{ tool: 'list', args: {}, why: 'see which projects are indexed' }],
  },
  stale_index: {
    code: 'stale_index',
    title: 'Index built by an older extractor or schema',
    fires_when:
      "The project's extractor version is older than the running Worker's, or its schema_version_at_index older than the oldest schema whose index the Worker reads as its own (later migrations that only change how rows are stored do not count), so results may miss symbols the current extractor would find.",
    recovery: 'Re-index: push again from CI, or call index with force=true to re-extract from the stored content.',
    steps: [{ tool: 'health', args: {}, why: 'see which projects are stale and by how much' }],
  },
  unsupported_language: {
    code: 'unsupported_language',
    title: 'Language not extracted',
    fires_when:
      'The file or language filter targets a language this server stores but has no extractor for (health lists the supported languages).',
    recovery: 'This is a language-support gap, not a workflow bug: pick another file, or use grep, which works on any stored text.',
    steps: [{ tool: 'health', args: {}, why: 'list the languages with an extractor' }],
  },
  low_confidence_extractor: {
    code: 'low_confidence_extractor',
    title: 'Every candidate is under the confidence floor',
    fires_when:
      'The extractor found candidates but every one fell below the min_confidence argument (symbols from files that parsed with errors carry a lower extraction_confidence); or a search found no symbol while a file the extractor could not read fully (parse failure, budget, syntax errors) holds the searched name.',
    recovery:
      'Lower min_confidence (clean AST parses are 1.0; files with syntax errors are lower), or omit it. When the diagnosis names files the extractor could not read fully, grep the name in them.',
    steps: [],
  },
  same_file_only: {
    code: 'same_file_only',
    title: 'Only same-file edges for this language',
    fires_when:
      'The language has same-file CALLS edges but no cross-file resolver, and the call asked for cross-file reach.',
    recovery: 'Scope the question to the same file (neighborhood), or use search/symbol, which do not need the edge graph.',
    steps: [],
  },
  cross_file_unavailable: {
    code: 'cross_file_unavailable',
    title: 'No edge graph for this language',
    fires_when: 'The language has an extractor but emits no edges of any kind, so graph questions have nothing to walk.',
    recovery: 'Use direct symbol lookups (search, symbol) or grep, which do not depend on the edge graph.',
    steps: [],
  },
  query_too_narrow: {
    code: 'query_too_narrow',
    title: 'Filters excluded every hit',
    fires_when:
      'The query matches the corpus, but the combined filters (kind, language, corpus, min_confidence, file_pattern) excluded everything.',
    recovery: 'Drop one filter at a time; the diagnosis names the filter that excluded the most candidates.',
    steps: [],
  },
  no_results_in_corpus: {
    code: 'no_results_in_corpus',
    title: 'Not in the indexed corpus',
    fires_when: 'The query and filters are fine but nothing in the indexed project matches; no filter relaxation will help.',
    recovery:
      'Check the spelling with a partial or prefix query, check the project with list, and if the code lives in an unindexed place (vendored, ignored, another repository) push it.',
    steps: [{ tool: 'list', args: {}, why: 'confirm the right project is scoped' }],
  },
  cap_dropped_all: {
    code: 'cap_dropped_all',
    title: 'A cap dropped every match',
    fires_when: 'Every candidate was dropped by a limit, offset or max_hops cap; the usual case is an offset past the last page.',
    recovery: 'Raise the cap or paginate back (offset=0); the diagnosis names the cap that fired.',
    steps: [],
  },
  incremental_no_change: {
    code: 'incremental_no_change',
    title: 'Nothing changed since the last index',
    fires_when: 'An index run found every file unchanged (same content hash), so there was nothing to do.',
    recovery:
      'Expected behaviour: the index already matches. If re-extraction is needed after an extractor upgrade, call index with force=true.',
    steps: [],
  },
  all_files_blocked: {
    code: 'all_files_blocked',
    title: 'Every file was blocked',
    fires_when:
      'Every file offered was filtered out (lockfiles, minified bundles, source maps, generated code, vendored or build folders, .pincherignore/.gitignore rules) before extraction.',
    recovery: 'Check that the pushed folder is the source tree (not node_modules or dist) and that no ignore rule covers everything.',
    steps: [],
  },
  extractor_emitted_nothing: {
    code: 'extractor_emitted_nothing',
    title: 'Files processed, no symbols',
    fires_when:
      'Files were stored and not blocked, but the extractor returned zero symbols: unmapped extensions or files that failed to parse.',
    recovery: "Look at health's extraction failures for the project: every parse failure is listed there with a reason code.",
    steps: [{ tool: 'health', args: {}, why: 'see extraction failures by reason' }],
  },
  target_not_resolved: {
    code: 'target_not_resolved',
    title: 'Input did not resolve to a symbol',
    fires_when:
      'The input looked like a valid target (symbol id, name or path shape) but matched nothing in the index, or was malformed for its shape.',
    recovery: 'Run search first to see what resolves, then re-issue with an exact symbol id (`path::Qualified.name#Kind`).',
    steps: [],
  },
};
