import * as z from 'zod';
import {
  ADR_STATUSES,
  allAdrs,
  countAdrs,
  createAdr,
  deleteAdr,
  getAdr,
  listAdrs,
  MAX_ADR_NUMBER,
  supersededBy,
  updateAdr,
  type AdrRow,
  type AdrStatus,
} from '../db/adr';
import { PincherError } from '../errors';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { paramError } from './params';
import { resolveProject } from './project-scope';

/**
 * Decision records are one concept served by two tools: `adr` reads (get,
 * list, export) and `adr_write` writes (set, delete). The seam grants a tool
 * to read-only keys by its readOnly annotation, so the split is what lets
 * those keys read records while only the full-access key changes them, and
 * keeps each tool's annotations true for every call it accepts.
 */

export const TITLE_MAX = 200;
export const BODY_MAX = 20_000;
const LIST_DEFAULT = 20;
const LIST_MAX = 100;
const OFFSET_MAX = 10_000;

const ID_INPUT = /^adr-?\d{1,4}$/i;

/** `adr-7`, `ADR7`, `ADR-0007` → `ADR-0007`; null for anything else (or ADR-0000). */
export function adrId(raw: string): string | null {
  const m = /^adr-?(\d{1,4})$/i.exec(raw.trim());
  if (!m || Number(m[1]) === 0) return null;
  return `ADR-${m[1].padStart(4, '0')}`;
}

function requireId(param: string, raw: string): string {
  const id = adrId(raw);
  if (!id) {
    throw new PincherError('invalid_params', `invalid arguments: ${param}: '${raw.slice(0, 40)}' is not an ADR id`, {
      suggestion: `pass an id of the form ADR-NNNN from 0001 to ${MAX_ADR_NUMBER} (e.g. ADR-0007); adr with action list shows the ids`,
      details: { issues: [{ param, message: 'must be ADR-NNNN' }] },
    });
  }
  return id;
}

const idParam = z.string().max(20).regex(ID_INPUT, 'an ADR id is ADR-NNNN, e.g. ADR-0007');
const statusParam = z.enum(ADR_STATUSES);
const projectParam = z.string().optional().describe(PROJECT_PARAM);

const record = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(ADR_STATUSES),
  context: z.string(),
  decision: z.string(),
  consequences: z.string(),
  superseded_by: z.string().nullable(),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
});
type RecordOut = z.infer<typeof record>;

const summary = record.pick({ id: true, title: true, status: true, superseded_by: true, updated_at: true });

function recordOut(r: AdrRow): RecordOut {
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    context: r.context,
    decision: r.decision,
    consequences: r.consequences,
    superseded_by: r.superseded_by,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

// ---------------------------------------------------------------- adr (read)

const readOutput = z.object({
  action: z.enum(['get', 'list', 'export']),
  project: z.string().nullable(),
  record: record.nullable().optional().describe('get: the record, null when the id matches none'),
  records: z.array(summary).optional().describe('list: one page by id'),
  total: z.number().optional().describe('list and export: records matching the status filter'),
  has_more: z.boolean().optional(),
  next_offset: z.number().optional(),
  markdown: z.string().optional().describe('export: every matching record as one Markdown document'),
});
type ReadOutput = z.infer<typeof readOutput>;

export const adrTool = defineTool({
  name: 'adr',
  title: 'Read architecture decision records',
  description:
    "Read a project's architecture decision records (ADR-0001…): get one whole, list a page of summaries by id, or export all as " +
    'Markdown. Read-only (adr_write creates, updates and deletes). An id matching no record answers target_not_resolved; a project ' +
    'without records no_results_in_corpus; a status filter excluding all query_too_narrow; an offset past the end cap_dropped_all.',
  tier: 'lite',
  toolset: 'full',
  baseline: 'none',
  input: z.object({
    project: projectParam,
    action: z.enum(['get', 'list', 'export']).default('list').describe('get (needs id), list (default) or export.'),
    id: idParam.optional().describe('get only, and required there: ADR-NNNN (adr-7 is read as ADR-0007).'),
    status: statusParam.optional().describe('list and export only: keep records of this status.'),
    limit: z.number().int().min(1).max(LIST_MAX).optional().describe(`list only: records per page, 1–${LIST_MAX}, default ${LIST_DEFAULT}; base-10 strings accepted.`),
    offset: z.number().int().min(0).max(OFFSET_MAX).optional().describe(`list only: records to skip, 0–${OFFSET_MAX}, default 0; base-10 strings accepted.`),
  }),
  output: readOutput,
  handler: async (args, ctx) => {
    const only = (param: 'id' | 'status' | 'limit' | 'offset', actions: readonly string[]) => {
      if (args[param] !== undefined && !actions.includes(args.action)) {
        throw paramError('adr', param, `not with action ${args.action}`, `drop ${param}, or use action ${actions.join(' or ')}`);
      }
    };
    only('id', ['get']);
    only('status', ['list', 'export']);
    only('limit', ['list']);
    only('offset', ['list']);
    if (args.action === 'get' && args.id === undefined) {
      throw paramError('adr', 'id', 'required with action get', 'pass id: ADR-NNNN, or use action list to see the ids');
    }
    const id = args.id === undefined ? undefined : requireId('id', args.id);
    const project = await resolveProject(ctx, args.project);
    const base = { action: args.action, project: project?.name ?? null };
    if (!project) return args.action === 'get' ? { ...base, record: null } : base;
    // The project's record count explains an empty answer: asked now, it rides in the answer's own round trip.
    const total = countAdrs(ctx.db, project.id);
    total.catch(() => undefined);
    if (args.action === 'get') return { ...base, record: await getOne(ctx, project, id as string, total) };
    if (args.action === 'list') return { ...base, ...(await listPage(ctx, project, args.status, args.limit ?? LIST_DEFAULT, args.offset ?? 0, total)) };
    return { ...base, ...(await exportAll(ctx, project, args.status, total)) };
  },
});

type Project = { id: string; name: string };

async function getOne(ctx: ToolContext, project: Project, id: string, count: Promise<number>): Promise<RecordOut | null> {
  const row = await getAdr(ctx.db, project.id, id);
  if (row) return recordOut(row);
  const total = await count;
  ctx.meta.empty('target_not_resolved', `no decision record ${id} in project '${project.name}' (it holds ${total})`, { id, records: total });
  ctx.meta.next('adr', { project: project.name, action: 'list' }, total ? 'list the record ids of this project' : 'confirm the project holds no records');
  return null;
}

async function listPage(ctx: ToolContext, project: Project, status: AdrStatus | undefined, limit: number, offset: number, count: Promise<number>): Promise<Partial<ReadOutput>> {
  const page = await listAdrs(ctx.db, project.id, { status, limit, offset });
  const records = page.rows.map((r) => ({ id: r.id, title: r.title, status: r.status, superseded_by: r.superseded_by, updated_at: new Date(r.updated_at).toISOString() }));
  const step = (over: Record<string, unknown>) => ({ project: project.name, action: 'list', ...(status ? { status } : {}), ...(limit !== LIST_DEFAULT ? { limit } : {}), ...over });
  const hasMore = offset + records.length < page.total;
  const out: Partial<ReadOutput> = { records, total: page.total, has_more: hasMore };
  if (hasMore) {
    out.next_offset = offset + records.length;
    ctx.meta.next('adr', step({ offset: out.next_offset }), `fetch the next page (${page.total - out.next_offset} more record(s))`);
  }
  if (records.length === 0) await explainNone(ctx, project, status, page.total, offset, step, count);
  return out;
}

async function exportAll(ctx: ToolContext, project: Project, status: AdrStatus | undefined, count: Promise<number>): Promise<Partial<ReadOutput>> {
  const rows = await allAdrs(ctx.db, project.id, status);
  if (rows.length === 0) {
    await explainNone(ctx, project, status, 0, 0, (over) => ({ project: project.name, action: 'export', ...over }), count);
    return { total: 0, markdown: '' };
  }
  return { total: rows.length, markdown: toMarkdown(project.name, rows, status) };
}

/** Why a list or export came back empty, most specific first: an offset past the end, a status filter, no records at all. */
async function explainNone(
  ctx: ToolContext,
  project: Project,
  status: AdrStatus | undefined,
  matching: number,
  offset: number,
  step: (over: Record<string, unknown>) => Record<string, unknown>,
  /** The project's record count, asked with the answer. */
  count: Promise<number>,
): Promise<void> {
  if (matching > 0) {
    ctx.meta.empty('cap_dropped_all', `offset ${offset} is past the last of ${matching} record(s)`, { cap: 'offset', offset, total: matching });
    ctx.meta.next('adr', step({ offset: 0 }), 'rewind to the first page');
    return;
  }
  const total = await count;
  if (status && total > 0) {
    ctx.meta.empty('query_too_narrow', `no record of '${project.name}' has status ${status}; it holds ${total} record(s) of other statuses`, { filter: 'status', status, records: total });
    const { status: _drop, ...without } = step({});
    ctx.meta.next('adr', without, `drop the status filter: ${total} record(s)`);
    return;
  }
  ctx.meta.empty('no_results_in_corpus', `project '${project.name}' has no decision records yet; adr_write with action set records one`, { records: 0 });
  ctx.meta.next('list', {}, 'confirm the right project is scoped');
}

/** The records as one Markdown document: a heading per record, its status line, then context, decision and consequences. */
export function toMarkdown(project: string, rows: readonly AdrRow[], status?: AdrStatus): string {
  const parts = [`# Architecture decision records: ${project}${status ? ` (${status})` : ''}`, ''];
  for (const r of rows) {
    parts.push(`## ${r.id}: ${r.title}`, '');
    parts.push(`- Status: ${r.status}${r.superseded_by ? ` (superseded by ${r.superseded_by})` : ''}`);
    parts.push(`- Created: ${new Date(r.created_at).toISOString()}`, `- Updated: ${new Date(r.updated_at).toISOString()}`, '');
    for (const [heading, body] of [['Context', r.context], ['Decision', r.decision], ['Consequences', r.consequences]] as const) {
      if (body.trim()) parts.push(`### ${heading}`, '', body.trim(), '');
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

// ---------------------------------------------------------- adr_write (write)

const writeOutput = z.object({
  action: z.enum(['set', 'delete']),
  project: z.string().nullable(),
  id: z.string().nullable().describe('the record created, updated or deleted'),
  created: z.boolean(),
  deleted: z.boolean(),
  record: record.nullable().describe('set: the record as stored'),
});
type WriteOutput = z.infer<typeof writeOutput>;

const BODY_FIELDS = ['context', 'decision', 'consequences'] as const;
const SET_FIELDS = ['title', 'status', ...BODY_FIELDS, 'superseded_by'] as const;

const body = (what: string) => z.string().max(BODY_MAX).optional().describe(`set only: ${what}, at most ${BODY_MAX} characters (Markdown).`);

export const adrWriteTool = defineTool({
  name: 'adr_write',
  title: 'Create, update or delete a decision record',
  description:
    "Change a project's architecture decision records; needs the full-access key (adr reads). set without id creates the next " +
    'ADR-NNNN (title required, status default proposed); set with id updates only the fields given; delete removes one record. ' +
    'Destructive because delete removes a record (set never does); set without id is not idempotent. An unknown id is not_found; ' +
    'deleting a record another one is superseded by is refused.',
  tier: 'lite',
  toolset: 'full',
  writes: { idempotent: false, destructive: true },
  baseline: 'none',
  input: z.object({
    project: projectParam,
    action: z.enum(['set', 'delete']).describe('set (create or update) or delete.'),
    id: idParam.optional().describe('ADR-NNNN (adr-7 is read as ADR-0007). set: the record to update, omit to create; delete: required.'),
    title: z
      .string()
      .max(TITLE_MAX)
      .regex(/\S/, 'title must not be blank')
      .optional()
      .describe(`set only: 1–${TITLE_MAX} characters, not blank; required when creating.`),
    status: statusParam.optional().describe('set only: default proposed on create. Any status but superseded clears superseded_by.'),
    context: body('the forces and background'),
    decision: body('what was decided'),
    consequences: body('what follows from it'),
    superseded_by: idParam
      .optional()
      .describe('set only: the existing, different record that replaces this one; sets status superseded (another status with it is invalid_params).'),
  }),
  output: writeOutput,
  handler: async (args, ctx) => {
    const given = SET_FIELDS.filter((f) => args[f] !== undefined);
    const id = args.id === undefined ? undefined : requireId('id', args.id);
    const replacedBy = args.superseded_by === undefined ? undefined : requireId('superseded_by', args.superseded_by);
    if (args.action === 'delete') {
      if (given.length) throw paramError('adr_write', given[0], 'not with action delete', `delete takes only project and id; drop ${given.join(', ')}`);
      if (!id) throw paramError('adr_write', 'id', 'required with action delete', 'pass the id to delete (adr with action list shows them)');
    } else {
      if (!id && args.title === undefined) throw paramError('adr_write', 'title', 'required when creating a record (set without id)', 'pass a title, or an id to update an existing record');
      if (id && given.length === 0) throw paramError('adr_write', 'id', 'set with id needs at least one field to change', `pass one of ${SET_FIELDS.join(', ')}`);
      if (replacedBy && args.status !== undefined && args.status !== 'superseded') {
        throw paramError('adr_write', 'status', `${args.status} contradicts superseded_by`, 'drop status (superseded_by sets superseded), or drop superseded_by');
      }
      if (replacedBy && replacedBy === id) throw paramError('adr_write', 'superseded_by', 'a record cannot supersede itself', 'name the record that replaces this one');
    }
    const project = await resolveProject(ctx, args.project);
    const none: WriteOutput = { action: args.action, project: project?.name ?? null, id: null, created: false, deleted: false, record: null };
    if (!project) return none;
    if (args.action === 'delete') return { ...none, ...(await remove(ctx, project, id as string)) };
    if (replacedBy && !(await getAdr(ctx.db, project.id, replacedBy))) {
      throw new PincherError('not_found', `superseded_by names ${replacedBy}, which is not a record of '${project.name}'`, {
        suggestion: 'create the replacing record first (adr_write set without id), then point superseded_by at its id',
      });
    }
    const status = args.status ?? (replacedBy ? 'superseded' : undefined);
    const now = Date.now();
    if (!id) {
      const row = await createAdr(
        ctx.db,
        project.id,
        {
          title: (args.title as string).trim(),
          status: status ?? 'proposed',
          context: args.context ?? '',
          decision: args.decision ?? '',
          consequences: args.consequences ?? '',
          superseded_by: replacedBy ?? null,
        },
        now,
      );
      if (!row) {
        throw new PincherError('invalid_request', `project '${project.name}' already holds ADR-${MAX_ADR_NUMBER}, the last number`, {
          suggestion: 'update or delete existing records (adr_write set/delete with id) instead of creating new ones',
        });
      }
      return { ...none, id: row.id, created: true, record: recordOut(row) };
    }
    const row = await updateAdr(
      ctx.db,
      project.id,
      id,
      {
        title: args.title?.trim() ?? null,
        status: status ?? null,
        context: args.context ?? null,
        decision: args.decision ?? null,
        consequences: args.consequences ?? null,
        superseded_by: replacedBy ?? null,
      },
      now,
    );
    if (!row) throw missing(project, id);
    return { ...none, id: row.id, record: recordOut(row) };
  },
});

function missing(project: Project, id: string): PincherError {
  return new PincherError('not_found', `no decision record ${id} in project '${project.name}'`, {
    suggestion: 'call adr with action list to see the ids; set without id creates a new record',
  });
}

async function remove(ctx: ToolContext, project: Project, id: string): Promise<Partial<WriteOutput>> {
  const dependants = await supersededBy(ctx.db, project.id, id);
  if (dependants.length) {
    throw new PincherError('invalid_request', `${id} supersedes ${dependants.join(', ')}; deleting it would leave them pointing at nothing`, {
      suggestion: `first give ${dependants.join(', ')} another status or superseded_by (adr_write set), then delete ${id}`,
      details: { superseded: dependants },
    });
  }
  if (!(await deleteAdr(ctx.db, project.id, id))) throw missing(project, id);
  return { id, deleted: true };
}
