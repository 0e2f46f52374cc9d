/**
 * What a free-text task names: identifiers (camelCase, PascalCase,
 * snake_case, `Class.method`, anything quoted), file paths, quoted phrases
 * and plain search words. Pure text work; the index is asked in seeds.ts.
 */
import { identifierWords } from '../util/words';

export interface TaskTerms {
  /** Identifier-shaped names as written, strongest first (quoted, then dotted/camel/snake, then Capitalised). */
  identifiers: string[];
  /** File paths mentioned (with a `:line` suffix removed), as written. */
  paths: { path: string; line?: number }[];
  /** Quoted text that is not a single identifier (error messages, literals). */
  phrases: string[];
  /** Lower-case search words: identifier parts and content words, stopwords removed. */
  words: string[];
}

/** Task verbs and filler that name no code. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does done doing for from get got had has have how i if in into is it its ' +
    'me my no not of on or our please should so some than that the their them then there these this those to too us was we were ' +
    'what when where which who whom why will with would you your all any also just like need needs want wants use used using ' +
    'fix fixes fixed add adds added remove removed update updated change changes changed make makes write explain find show ' +
    'look see tell help work works working implement implementing refactor rename move call calls called caller callers ' +
    'code file files function functions method methods class classes symbol symbols bug bugs issue issues error errors problem ' +
    'new old via after before around about again now here every each other same only more most less instead sure able'
  ).split(' '),
);

const EXTENSIONS = 'ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyi|go|rs|java|kt|scala|rb|php|cs|c|h|cc|cpp|hpp|sh|md|json|ya?ml|toml|sql|vue|svelte';
/** A path: segments joined by '/', or a file name with a known extension; optional `:line`. */
const PATH = new RegExp(`^((?:[\\w.@-]+/)+[\\w.@-]+|[\\w.@-]+\\.(?:${EXTENSIONS}))(?::(\\d+))?$`);
const IDENT = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*$/;

function isStrongIdentifier(t: string): boolean {
  return /[.:#]/.test(t) || /_/.test(t.replace(/^_+|_+$/g, '')) || /[a-z][A-Z]/.test(t) || /[A-Z]{2,}[a-z]/.test(t) || /[A-Za-z]\d|\d[A-Za-z]/.test(t);
}

/**
 * Reads the names, paths and words out of a task.
 *
 * @example
 * taskTerms('why does `Server.start` call listen in src/app.ts:3?')
 * // identifiers ['Server.start'], paths [{ path: 'src/app.ts', line: 3 }], words ['server', 'start', 'listen']
 */
export function taskTerms(text: string): TaskTerms {
  const identifiers: string[] = [];
  const weak: string[] = [];
  const paths: { path: string; line?: number }[] = [];
  const phrases: string[] = [];
  const words: string[] = [];
  const addWord = (w: string) => {
    const lw = w.toLowerCase();
    if (lw.length >= 2 && !STOPWORDS.has(lw) && /[a-z]/.test(lw) && !words.includes(lw)) words.push(lw);
  };
  const addIdentifier = (t: string, strong: boolean) => {
    const list = strong ? identifiers : weak;
    if (!identifiers.includes(t) && !weak.includes(t)) list.push(t);
    for (const w of identifierWords(t).split(' ')) if (w) addWord(w);
  };

  // Quoted spans first: `x`, "x", 'x' (an apostrophe inside a word is not a quote).
  const rest = text.replace(/`([^`\n]{1,200})`|"([^"\n]{1,200})"|(?<![\w])'([^'\n]{1,200})'(?![\w])/g, (_m, a, b, c) => {
    const q = String(a ?? b ?? c).trim();
    const path = PATH.exec(q);
    if (path && (q.includes('/') || !IDENT.test(q) || /\.\w+$/.test(q))) paths.push({ path: path[1], ...(path[2] ? { line: Number(path[2]) } : {}) });
    else if (IDENT.test(q)) addIdentifier(q, true);
    else if (q) {
      phrases.push(q);
      for (const w of q.split(/[^\w$]+/)) if (IDENT.test(w)) addIdentifier(w, isStrongIdentifier(w));
    }
    return ' ';
  });

  for (const raw of rest.split(/[\s,;!?()[\]{}<>|=+*&^%~]+/)) {
    const token = raw.replace(/^[^\w$./@-]+|[^\w$]+$/g, '').replace(/[.:]+$/, '');
    if (!token) continue;
    const path = PATH.exec(token);
    if (path && (token.includes('/') || new RegExp(`\\.(?:${EXTENSIONS})(?::\\d+)?$`).test(token))) {
      paths.push({ path: path[1], ...(path[2] ? { line: Number(path[2]) } : {}) });
      continue;
    }
    if (!IDENT.test(token)) {
      for (const w of token.split(/[^\w$]+/)) addWord(w);
      continue;
    }
    if (isStrongIdentifier(token)) addIdentifier(token, true);
    else if (/^[A-Z][a-z]/.test(token) && !STOPWORDS.has(token.toLowerCase())) addIdentifier(token, false);
    else addWord(token);
  }
  const seen = new Set<string>();
  const dedupPaths = paths.filter((p) => !seen.has(p.path) && seen.add(p.path));
  return { identifiers: [...identifiers, ...weak].slice(0, 20), paths: dedupPaths.slice(0, 10), phrases: phrases.slice(0, 5), words: words.slice(0, 16) };
}
