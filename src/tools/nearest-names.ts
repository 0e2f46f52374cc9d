import { nameCandidates, type MovedSymbol, type NearSymbol } from '../db/names';
import { nearest, nearestBounds } from '../util/did-you-mean';
import { splitQualified } from '../util/qualified-ref';
import type { ToolContext } from './define';

/** Names offered when a target does not resolve. */
const OFFERED = 3;

/**
 * Recovery for a name that resolves to nothing: the nearest names that exist
 * in the index (did-you-mean), each as a ready step of `tool` with `argsFor`
 * its id; when none is near, a broader search (a prefix of the name). In two
 * steps: the candidates are asked for now (their statement shares the round
 * trip of whatever else the caller asks for at once), and the steps are
 * written by calling the returned function, in the caller's order; it
 * returns the names offered. With `unlessMoved`, nothing is offered when
 * that symbol has moved (asked alongside the look-up of its moved file). With
 * `near` (the file and owner the name was asked in), each name offered comes
 * with its id there when it has one (names.ts NearSymbol).
 *
 * @example
 * const near = startNearestNames(ctx, project, 'lisen', 'context', (id) => ({ id }));
 * await near();
 */
export function startNearestNames(
  ctx: ToolContext,
  project: { id: string; name: string },
  name: string,
  tool: string,
  argsFor: (id: string, name: string) => Record<string, unknown>,
  unlessMoved: MovedSymbol | null = null,
  near: NearSymbol | null = null,
): () => Promise<string[]> {
  const bare = name.replace(/@\d+$/, '').split(/\.| > |::|#/).filter(Boolean).pop()?.trim() || name;
  const asked = nameCandidates(ctx.db, project.id, bare, nearestBounds(bare), unlessMoved, near);
  // A caller that fails before writing the steps never awaits it.
  asked.catch(() => undefined);
  return async () => {
    const rows = await asked;
    // The name itself exists (the id or path around it was wrong): search returns its exact ids.
    if (rows.some((r) => r.name === bare)) {
      ctx.meta.next('search', { project: project.name, query: bare }, `'${bare}' is defined in this project: search returns its exact ids`);
    }
    const names = nearest(bare, rows.map((r) => r.name), OFFERED);
    const ids = new Map(rows.map((r) => [r.name, r.id]));
    for (const n of names) ctx.meta.next(tool, { project: project.name, ...argsFor(ids.get(n) ?? n, n) }, `did you mean '${n}'? (${ids.get(n)})`);
    if (names.length === 0 && bare.length >= 4) {
      const prefix = bare.slice(0, Math.max(3, Math.ceil(bare.length / 2)));
      ctx.meta.next('search', { project: project.name, query: `${prefix}*` }, `no name near '${bare}': symbols starting with '${prefix}'`);
    }
    return names;
  };
}

/**
 * The owner a qualified name spells, '.'-joined as the index stores parents (splitQualified: `Locator` of
 * `Locator.getSystemd`, `a.b` of `a.b.c` or `a::b::c`, `Class` of `Class#method`); for what is not a name to it
 * (a Markdown heading's path, `Foo.<lambda>`), what stands before the last ` > ` or `.`; null for a bare name. A
 * trailing `@line` is not part of it.
 */
export function ownerOf(qualified: string): string | null {
  const name = qualified.replace(/@\d+$/, '');
  const owner = splitQualified(name)?.owner;
  if (owner !== undefined) return owner;
  const cut = Math.max(name.lastIndexOf(' > '), name.lastIndexOf('.'));
  return cut > 0 ? name.slice(0, cut) : null;
}
