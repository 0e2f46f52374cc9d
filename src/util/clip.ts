/**
 * Shortened texts for answers that list many items (search hits): a cut is
 * always marked with CLIP_MARK at its end, so a reader knows more exists and
 * where to get it whole (`symbol`).
 */

/** Ends a text that was shortened. */
export const CLIP_MARK = '…';

/** `text` cut to at most `max` characters (code points), at a word boundary when one is near, ending with `…` when cut. */
export function clip(text: string, max: number): string {
  const cps = [...text];
  if (cps.length <= max) return text;
  let cut = cps.slice(0, max - 1).join('');
  const space = cut.search(/\s\S*$/);
  if (space > (max * 2) / 3) cut = cut.slice(0, space);
  return `${cut.trimEnd()}${CLIP_MARK}`;
}

/**
 * The first paragraph of a docstring (up to its first blank line, lines
 * joined by one space), clipped to `max` characters; `…` marks anything left out.
 */
export function firstParagraph(text: string, max: number): string {
  const trimmed = text.trim();
  const para = trimmed.split(/\r?\n[ \t]*\r?\n/, 1)[0];
  const joined = para.replace(/\s*\r?\n\s*/g, ' ');
  const short = clip(joined, max);
  return short === joined && para.length < trimmed.length ? `${joined}${CLIP_MARK}` : short;
}
