// Seeded request generators for the fuzz: tool arguments from each tool's advertised JSON
// schema (valid, then mutated), JSON-RPC messages for both MCP revisions, and the upload
// protocol with good and bad manifests.
import { createHash } from 'node:crypto';
import { NAMES } from './corpus.mjs';

const NASTY_STRINGS = [
  '',
  ' ',
  '../../etc/passwd',
  '/etc/passwd',
  'C:\\Windows\\system32',
  'src/../../x.ts',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '💥'.repeat(50),
  '%00%2e%2e%2f',
  "'; DROP TABLE files; --",
  '" OR 1=1 --',
  '(a+)+$',
  '((((((((((a*)*)*)*)*)*)*)*)*)*)*b',
  '[',
  '*',
  '**/**/**/**',
  'NOT',
  '"unterminated',
  'AND OR NOT ( ) "',
  'x'.repeat(5000),
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '\r\nX-Injected: 1',
  'find symbol where kind = ',
];

const NASTY_NUMBERS = [-1, 0, 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, 1e-9, 999999999999];

function hash(text) {
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
}

/** A plausible string for a property, from its name and the corpus. */
function plausibleString(rng, name) {
  const n = name.toLowerCase();
  if (n.includes('path') || n === 'file' || n === 'scope') return rng.pick(NAMES.files);
  if (n.includes('symbol') || n === 'name' || n === 'id') return rng.pick([...NAMES.functions, ...NAMES.classes]);
  if (n.includes('pattern') || n === 'query' || n === 'q') return rng.pick([...NAMES.functions, 'handle*', 'load_config', 'Service', '"parse input"']);
  if (n === 'code') return rng.pick(['query_too_narrow', 'no_index', 'project_not_indexed', 'nope']);
  return rng.pick([...NAMES.functions, 'main', 'src', 'x']);
}

/** A value that satisfies `schema` as far as its type, enum and items say (ranges may still be off). */
function valueFor(rng, schema, name, depth) {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return valueFor(rng, rng.pick(variants), name, depth);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
  switch (type) {
    case 'string':
      return plausibleString(rng, name);
    case 'integer':
      return rng.chance(0.8) ? rng.int(0, 50) : rng.pick(NASTY_NUMBERS);
    case 'number':
      return rng.chance(0.8) ? rng.next() : rng.pick(NASTY_NUMBERS);
    case 'boolean':
      return rng.chance(0.5);
    case 'array': {
      if (depth > 3) return [];
      const n = rng.int(0, 3);
      return Array.from({ length: n }, () => valueFor(rng, schema.items, name, depth + 1));
    }
    case 'object':
    default:
      if (depth > 3) return {};
      return objectFor(rng, schema, depth + 1);
  }
}

function objectFor(rng, schema, depth = 0) {
  const out = {};
  const required = new Set(schema.required ?? []);
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if (required.has(key) || rng.chance(0.45)) out[key] = valueFor(rng, sub, key, depth);
  }
  return out;
}

/** A junk value of any JSON type. */
function junk(rng, depth = 0) {
  const kind = rng.int(0, depth > 2 ? 4 : 7);
  switch (kind) {
    case 0:
      return rng.pick(NASTY_STRINGS);
    case 1:
      return rng.pick(NASTY_NUMBERS);
    case 2:
      return null;
    case 3:
      return rng.chance(0.5);
    case 4:
      return 'z'.repeat(rng.pick([100, 10_000, 200_000]));
    case 5:
      return [junk(rng, depth + 1), junk(rng, depth + 1)];
    case 6: {
      let v = [];
      for (let i = 0; i < 60; i++) v = [v];
      return v;
    }
    default:
      return { [rng.pick(['a', '__proto__', 'constructor', ''])]: junk(rng, depth + 1) };
  }
}

/** Tool arguments: valid per schema, then mutated half of the time. */
export function toolArgs(rng, tool, project) {
  const args = objectFor(rng, tool.input_schema ?? {});
  if ('project' in (tool.input_schema?.properties ?? {})) args.project = project;
  if (rng.chance(0.5)) {
    const keys = Object.keys(tool.input_schema?.properties ?? {});
    const m = rng.int(0, 4);
    if (m === 0 && keys.length) args[rng.pick(keys)] = junk(rng);
    else if (m === 1) args[rng.pick(['unknown_param', 'limt', 'projet', 'q'])] = junk(rng);
    else if (m === 2 && keys.length) delete args[rng.pick(keys)];
    else if (m === 3 && keys.length) args[rng.pick(keys)] = rng.pick(NASTY_STRINGS);
    else if (keys.length) args[rng.pick(keys)] = rng.pick(NASTY_NUMBERS);
  }
  return args;
}

/** A body that is not the JSON object a tool expects. */
export function badBody(rng) {
  return rng.pick(['{', '[]', 'null', '"text"', '42', '{"a":', '\u0000', '{"project": "x",}', 'not json at all', '{"a":1}{"b":2}', '\xff\xfe']);
}

/** JSON-RPC params for `method`, valid or not. */
export function rpcParams(rng, method, tools, project) {
  switch (method) {
    case 'initialize':
      return rng.chance(0.5)
        ? { protocolVersion: rng.pick(['2025-06-18', '2025-03-26', '2025-11-25', '1999-01-01']), capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } }
        : rng.pick([{}, { protocolVersion: 1 }, { capabilities: 'x' }, { clientInfo: null }]);
    case 'tools/list':
    case 'prompts/list':
      return rng.pick([{}, { cursor: 1 }, { cursor: 'abc' }, { cursor: null }, { cursor: { a: 1 } }]);
    case 'tools/call': {
      const tool = rng.pick(tools);
      if (rng.chance(0.1)) return rng.pick([{}, { name: 42 }, { name: 'no_such_tool', arguments: {} }, { name: tool.name, arguments: 'x' }]);
      return { name: tool.name, arguments: toolArgs(rng, tool, project) };
    }
    case 'prompts/get':
      return rng.pick([{}, { name: 'guide' }, { name: 'guide', arguments: { task: rng.pick(NASTY_STRINGS) } }, { name: 'nope' }, { name: 'guide', arguments: 5 }]);
    default:
      return rng.chance(0.5) ? {} : junk(rng);
  }
}

export const RPC_METHODS = ['initialize', 'tools/list', 'tools/call', 'tools/call', 'tools/call', 'prompts/list', 'prompts/get', 'ping', 'resources/list', 'completion/complete', 'logging/setLevel', 'no/such/method', 'notifications/initialized'];

/** A file batch item for the upload protocol. */
export function fileItem(path, content) {
  return { path, hash: hash(content), content };
}

/** A manifest for `files` (path → content), possibly corrupted; says whether it should be accepted. */
export function manifestFor(rng, files) {
  const manifest = Object.entries(files).map(([p, c]) => ({ path: p, hash: hash(c), size: Buffer.byteLength(c) }));
  if (rng.chance(0.6)) return { manifest, valid: true };
  const bad = structuredClone(manifest);
  const i = rng.int(0, bad.length - 1);
  const m = rng.int(0, 7);
  if (m === 0) bad[i].path = rng.pick(['../escape.ts', '/abs.ts', 'a/./b.ts', 'a\u0000b.ts', '', 'x/'.repeat(600)]);
  else if (m === 1) bad[i].hash = rng.pick(['xyz', '', 'A'.repeat(64), 42]);
  else if (m === 2) bad[i].size = rng.pick([-1, 'big', 1e20, null]);
  else if (m === 3) bad.push({ ...bad[i] });
  else if (m === 4) delete bad[i].hash;
  else if (m === 5) return { manifest: 'not a list', valid: false };
  else if (m === 6) return { manifest: [null, 1, 'x'], valid: false };
  else bad[i] = { path: bad[i].path };
  return { manifest: bad, valid: false };
}

/** Small generated files for an upload to a fuzz project. */
export function uploadFiles(rng) {
  const n = rng.int(1, 4);
  const files = {};
  for (let k = 0; k < n; k++) {
    const name = `f${rng.int(0, 9)}_${k}`;
    files[`src/${name}.ts`] = `export function ${name}(x: number): number {\n  return x + ${k};\n}\n`;
  }
  return files;
}
