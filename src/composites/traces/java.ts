import { numberDepths, type Frame, type ParsedTrace } from './types';

/** `at com.x.Y.m(Y.java:12)`, with an optional module prefix (`java.base/`, `app//`). */
const FRAME = /^\s*at\s+(?:[\w.$-]+\/\/?)?([\w$.<>-]+)\.([\w$<>-]+)\(([^():]+):(\d+)\)\s*$/;
/** A frame without a location: `(Native Method)`, `(Unknown Source)`. */
const NO_LOCATION = /^\s*at\s+\S+\((?:Native Method|Unknown Source)\)\s*$/;
/** An exception header: `Exception in thread "main" x.Y: msg`, `Caused by: x.Y`, `Suppressed: …`, or a bare `x.YException: msg`. */
const HEADER = /^\s*(?:Exception in thread "[^"]*" |Caused by: |Suppressed: |\[CIRCULAR REFERENCE: )?((?:[\w$]+\.)*[\w$]*(?:Exception|Error|Throwable)\b.*)$/;
/** Class prefixes of the JDK, the usual JVM languages' runtimes and test harnesses. */
const LIBRARY = /^(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|org\.junit|junit|org\.gradle|org\.apache\.maven|org\.testng)\./;

/**
 * JVM stack traces (Java, Kotlin, Scala…): innermost frame first; each
 * exception header (`Exception in thread`, `Caused by:`, `Suppressed:`)
 * opens a block. A frame's path hint is its package directory plus file
 * name (`com/x/Y.java`), matched against project paths by suffix.
 */
export function parseJava(lines: readonly string[]): ParsedTrace {
  const frames: Frame[] = [];
  const messages: string[] = [];
  let block = -1;
  lines.forEach((line, k) => {
    const m = FRAME.exec(line);
    if (m) {
      if (block < 0) block = 0;
      const [, cls, method, file, l] = m;
      const pkg = cls.includes('.') ? cls.slice(0, cls.lastIndexOf('.')) : '';
      const packagePath = pkg ? `${pkg.replace(/\./g, '/')}/${file}` : file;
      frames.push({
        path: packagePath,
        line: Number(l),
        function: `${cls}.${method}`,
        block,
        depth: 0,
        at: k + 1,
        library: LIBRARY.test(cls),
        hints: [packagePath, file],
      });
      return;
    }
    if (NO_LOCATION.test(line) || /^\s*\.\.\. \d+ (?:more|common frames omitted)/.test(line)) return;
    const h = HEADER.exec(line);
    if (h && !/^\s*at\s/.test(line)) {
      block++;
      messages.push(line.trim());
    }
  });
  return { format: 'java', frames: numberDepths(frames, true), message: messages.length ? [...new Set(messages)].join('\n') : null };
}
