import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../helpers';
import { runRead } from '../run-tool';
import { push } from '../upload/support';

/**
 * No statement a tool sends to D1 binds a LIMIT or OFFSET value: SQLite
 * (3.46 on) prepares such a statement a second time at its first step, and
 * D1 prepares every statement anew on every call (src/db/limit-literals.ts).
 */
const PROJECT = 'statement-limits';

const FILES = {
  'src/cart.ts': [
    'export class Cart {',
    '  total(items: number[]): number {',
    '    return sumPrices(items);',
    '  }',
    '}',
    'export function sumPrices(items: number[]): number {',
    '  if (!items.length) throw new Error("empty cart");',
    '  return roundPrice(items.reduce((a, b) => a + b, 0));',
    '}',
    'export function roundPrice(p: number): number {',
    '  return Math.round(p * 100) / 100;',
    '}',
  ].join('\n'),
  'src/stock.py': 'def reserve(sku):\n    if not sku:\n        raise KeyError("no sku")\n    return sku\n',
  'README.md': '# Shop\n\nCarts and stock.\n',
};

/** One statement as D1 received it: its text and its bound values. */
interface Sent {
  sql: string;
  values: unknown[];
}

/** A D1 binding or session that records each statement it executes (alone or in a batch) and runs it on `real`. */
function recorder(real: D1Database | D1DatabaseSession, sent: Sent[]): D1Database {
  const inner = new WeakMap<object, { statement: D1PreparedStatement; sent: Sent }>();
  const wrap = (statement: D1PreparedStatement, s: Sent): D1PreparedStatement => {
    const run = <T>(go: () => Promise<T>) => {
      sent.push(s);
      return go();
    };
    const w = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), { sql: s.sql, values }),
      first: (column?: string) => run(() => (column === undefined ? statement.first() : statement.first(column))),
      all: () => run(() => statement.all()),
      run: () => run(() => statement.run()),
      raw: (options?: { columnNames?: boolean }) => run(() => statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    inner.set(w, { statement, sent: s });
    return w;
  };
  return {
    prepare: (sql: string) => wrap(real.prepare(sql), { sql, values: [] }),
    batch: (statements: D1PreparedStatement[]) => {
      const real_ = statements.map((s) => inner.get(s) ?? { statement: s, sent: { sql: '(prepared elsewhere)', values: [] } });
      sent.push(...real_.map((r) => r.sent));
      return real.batch(real_.map((r) => r.statement));
    },
    withSession: (bookmark?: string) => recorder((real as D1Database).withSession(bookmark), sent),
    getBookmark: () => (real as D1DatabaseSession).getBookmark(),
  } as unknown as D1Database;
}

const CALLS: [string, Json][] = [
  ['symbol', { id: 'src/cart.ts::sumPrices#Function' }],
  ['symbols', { ids: ['src/cart.ts::sumPrices#Function', 'src/cart.ts::roundPrice#Function'] }],
  ['read', { path: 'src/cart.ts', map: true }],
  ['read', { path: 'src/cart.ts', offset: 2, limit: 5 }],
  ['read', { path: 'src/cart.ts', symbol: 'Cart.total' }],
  ['find', { pattern: '*.ts' }],
  ['find', { pattern: 'src/**' }],
  ['trace', { id: 'src/cart.ts::roundPrice#Function', direction: 'inbound', depth: 3 }],
  ['trace', { name: 'Cart.total', direction: 'both', depth: 2 }],
  ['grep', { pattern: 'sumPrices(', literal: true }],
  ['grep', { pattern: 'raise \\w+Error', path: '*.py', context: 1 }],
  ['search', { query: 'sumPrices' }],
  ['search', { query: 'round*', kind: 'Function', offset: 1 }],
  ['search', { query: 'sumPrices zebra' }],
  ['context_for_task', { task: 'Fix Cart.total in src/cart.ts: it throws on an empty cart' }],
  ['plan_change', { id: 'src/cart.ts::roundPrice#Function' }],
  ['investigate_failure', { trace: 'Error: empty cart\n    at sumPrices (/app/src/cart.ts:7:30)\n' }],
  ['list', { limit: 1 }],
  ['health', {}],
];

beforeAll(async () => {
  expect((await push(PROJECT, FILES)).commit?.status).toBe(200);
});

describe('statements the tools send', () => {
  it('bind no LIMIT or OFFSET value, the project check folded in or not', async () => {
    const sent: Sent[] = [];
    const bindings = Object.fromEntries(Object.entries(env).filter(([name]) => /^DB(?:_SHARD_\d+)?$/.test(name)).map(([name, db]) => [name, recorder(db as D1Database, sent)]));
    const recorded = { ...env, ...bindings } as typeof env;
    const tools = new Set<string>();
    // Twice each: the first call may read the project row, the second finds it cached and folds its check.
    for (const [name, args] of [...CALLS, ...CALLS]) {
      const outcome = await runRead(recorded, name, { project: PROJECT, ...(args as object) });
      expect(outcome.ok, `${name} ${JSON.stringify(args)}: ${outcome.payloadText.slice(0, 300)}`).toBe(true);
      tools.add(name);
    }
    expect(sent.length).toBeGreaterThan(CALLS.length);
    const limited = sent.filter((s) => /\b(?:LIMIT|OFFSET)\b/i.test(s.sql));
    expect(limited.length).toBeGreaterThan(10);
    // The project check did fold into statements (src/db/request-database.ts, foldChecks).
    expect(sent.filter((s) => s.sql.includes('a ride-along check failed')).length).toBeGreaterThan(5);
    const bound = sent.filter((s) => /\b(?:LIMIT|OFFSET)\s+\?/i.test(s.sql.replace(/'(?:[^']|'')*'/g, "''")));
    expect(bound.map((s) => s.sql.replace(/\s+/g, ' ').slice(0, 200))).toEqual([]);
    expect(tools.size).toBe(new Set(CALLS.map(([n]) => n)).size);
  });
});
