import * as z from 'zod';
import type { OutlineRow, SymbolRow } from '../../db/source';

/** Fields a symbol view can carry besides `id` (always present). */
export const SYMBOL_FIELDS = [
  'file_path', 'name', 'qualified_name', 'kind', 'signature', 'docstring', 'parent', 'language',
  'start_line', 'end_line', 'start_byte', 'end_byte', 'confidence', 'is_exported', 'is_test', 'source', 'outline',
] as const;
export type SymbolField = (typeof SYMBOL_FIELDS)[number];

export type Detail = 'full' | 'skeleton';

export const outlineEntry = z.object({
  id: z.string(),
  kind: z.string(),
  signature: z.string(),
  start_line: z.number(),
  end_line: z.number(),
});

export type OutlineEntry = z.infer<typeof outlineEntry>;

export const symbolView = z.object({
  id: z.string(),
  file_path: z.string().optional(),
  name: z.string().optional(),
  qualified_name: z.string().optional(),
  kind: z.string().optional(),
  signature: z.string().optional(),
  docstring: z.string().nullable().optional(),
  parent: z.string().nullable().optional(),
  language: z.string().optional(),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
  start_byte: z.number().optional(),
  end_byte: z.number().optional(),
  confidence: z.number().optional(),
  is_exported: z.boolean().optional(),
  is_test: z.boolean().optional(),
  source: z.string().optional(),
  /** `symbol` cut a long source: the first line left out (the warning holds the counts). */
  source_truncated: z.number().optional(),
  outline: z.array(outlineEntry).optional(),
  /** The id asked for, when the symbol was found under a new id (its file moved). */
  moved_from: z.string().optional(),
});
export type SymbolView = z.infer<typeof symbolView>;

export const fieldsParam = z
  .array(z.enum(SYMBOL_FIELDS))
  .min(1)
  .optional()
  .describe('Default all; source needs detail full, outline skeleton');

export const detailParam = z
  .enum(['full', 'skeleton'])
  .default('full')
  .describe("Default full; one call's outlines ≤2000 entries (outline_truncated)");

/** Whether the views need source slices from the database. */
export function wantsSource(fields: readonly SymbolField[] | undefined, detail: Detail): boolean {
  return detail === 'full' && (!fields || fields.includes('source'));
}

/** Whether the views need outlines of nested symbols. */
export function wantsOutline(fields: readonly SymbolField[] | undefined, detail: Detail): boolean {
  return detail === 'skeleton' && (!fields || fields.includes('outline'));
}

/** Outline entries grouped by owner id. */
export function outlinesByOwner(rows: readonly OutlineRow[]): Map<string, z.infer<typeof outlineEntry>[]> {
  const out = new Map<string, z.infer<typeof outlineEntry>[]>();
  for (const r of rows) {
    const list = out.get(r.owner) ?? [];
    list.push({ id: r.id, kind: r.kind, signature: r.signature, start_line: r.start_line, end_line: r.end_line });
    out.set(r.owner, list);
  }
  return out;
}

/** One symbol as the tools return it, projected onto `fields` for the given detail. */
export function viewOf(
  row: SymbolRow,
  opts: { fields?: readonly SymbolField[]; detail: Detail; outline?: z.infer<typeof outlineEntry>[]; movedFrom?: string },
): SymbolView {
  const all: Omit<SymbolView, 'id' | 'moved_from' | 'source_truncated'> = {
    file_path: row.file_path,
    name: row.name,
    qualified_name: row.qualified_name,
    kind: row.kind,
    signature: row.signature,
    docstring: row.docstring,
    parent: row.parent,
    language: row.language,
    start_line: row.start_line,
    end_line: row.end_line,
    start_byte: row.start_byte,
    end_byte: row.end_byte,
    confidence: row.confidence,
    is_exported: Boolean(row.is_exported),
    is_test: Boolean(row.is_test),
  };
  if (opts.detail === 'full' && typeof row.source === 'string') all.source = row.source;
  if (opts.detail === 'skeleton') all.outline = opts.outline ?? [];
  const view: SymbolView = { id: row.id };
  for (const key of Object.keys(all) as (keyof typeof all)[]) {
    if (opts.fields && !opts.fields.includes(key)) continue;
    if (all[key] !== undefined) (view as Record<string, unknown>)[key] = all[key];
  }
  if (opts.movedFrom) view.moved_from = opts.movedFrom;
  return view;
}
