/**
 * Languages whose references resolve across files (imports, packages,
 * modules). Every other language with reference captures resolves within a
 * file only. A test holds this list to the resolver's per-language module
 * resolvers and their fixture repositories.
 */
export const CROSS_FILE_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'rust']);
