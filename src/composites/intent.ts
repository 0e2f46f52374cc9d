/**
 * What a task asks for, from its wording and its shape: a pasted stack
 * trace or unified diff decides outright; otherwise the intent whose cue
 * phrases occur most often wins (ties in the order of INTENTS); no cue at
 * all reads as "understand".
 */
import { parseTrace } from './traces';

export const INTENTS = ['debug_failure', 'review_diff', 'impact', 'callers', 'definition', 'understand', 'find_text', 'explore'] as const;
export type Intent = (typeof INTENTS)[number];

const CUES: Record<Intent, RegExp[]> = {
  debug_failure: [/\bstack ?trace\b/, /\btraceback\b/, /\bexception\b/, /\bcrash(?:es|ed|ing)?\b/, /\bpanic(?:s|ked)?\b/, /\bfail(?:s|ed|ing|ure)?\b/, /\bthrows?\b/, /\braised?\b/, /\bdebug\b/, /\bbroken\b/, /\berror\b/],
  review_diff: [/\breview\b/, /\bdiff\b/, /\bpull request\b/, /\bpr\b/, /\bpatch\b/, /\bmy changes\b/, /\bchangeset\b/, /\bcommit\b/],
  impact: [/\bwhat (?:would )?breaks?\b/, /\bimpact\b/, /\baffect(?:s|ed)?\b/, /\bblast radius\b/, /\bsafe to (?:change|remove|delete|rename)\b/, /\bif i (?:change|remove|delete|rename|modify)\b/, /\brefactor(?:ing)?\b/, /\brenam(?:e|ing)\b/, /\bdepend(?:s|ents|encies)? on\b/],
  callers: [/\bwho calls\b/, /\bcallers?\b/, /\bcalled (?:from|by)\b/, /\bused by\b/, /\busages?\b/, /\buses of\b/, /\breferences? to\b/, /\bwhere is .+ used\b/, /\bcall sites?\b/, /\bwho uses\b/],
  definition: [/\bwhere is .+ defined\b/, /\bdefinition\b/, /\bdefined\b/, /\bdeclared?\b/, /\blocate\b/, /\bwhich file\b/, /\bwhere (?:is|are|does)\b/, /\bfind (?:the )?(?:class|function|method|type)\b/],
  understand: [/\bhow does\b/, /\bwhat does\b/, /\bexplain\b/, /\bunderstand\b/, /\bhow .+ works?\b/, /\bpurpose\b/, /\bwalk me through\b/, /\bwhat is\b/],
  find_text: [/\bgrep\b/, /\bstring\b/, /\bliteral\b/, /\bmessage\b/, /\blog (?:line|message)\b/, /\btodo\b/, /\bfixme\b/, /\boccurrences?\b/, /\bmentions?\b/, /\btext\b/],
  explore: [/\bstructure\b/, /\barchitecture\b/, /\boverview\b/, /\blayout\b/, /\borgani[sz]ed\b/, /\bwhere (?:do i|to) start\b/, /\bcodebase\b/, /\bmodules\b/, /\bfolders?\b/, /\bentry ?points?\b/, /\bexplore\b/],
};

/** Lines of a unified diff: a file header and a hunk header. */
const DIFF = /^(?:diff --git |--- \S)/m;
const HUNK = /^@@ -\d/m;

export interface Classified {
  intent: Intent;
  /** The task holds a stack trace with recognisable frames. */
  trace: boolean;
  /** The task holds a unified diff (file and hunk headers); `diffText` is the diff from its first header. */
  diff: boolean;
  diffText?: string;
}

export function classify(task: string): Classified {
  if (DIFF.test(task) && HUNK.test(task)) {
    const at = task.search(DIFF);
    return { intent: 'review_diff', trace: false, diff: true, diffText: task.slice(at) };
  }
  if (parseTrace(task)) return { intent: 'debug_failure', trace: true, diff: false };
  const text = task.toLowerCase();
  let best: Intent = 'understand';
  let bestScore = 0;
  for (const intent of INTENTS) {
    const score = CUES[intent].filter((re) => re.test(text)).length;
    if (score > bestScore) {
      best = intent;
      bestScore = score;
    }
  }
  return { intent: best, trace: false, diff: false };
}
