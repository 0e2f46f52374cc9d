import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';

const SLOW = 60_000;

async function outline(path: string, source: string): Promise<[string, string, string | null, number][]> {
  const r = await extractFile(path, source);
  expect(r.failure).toBeNull();
  return r.symbols.map((s) => [s.qualified_name, s.kind, s.parent, s.start_line]);
}

describe('JavaScript and TypeScript definitions by assignment', () => {
  it('makes CommonJS exports, prototype members and object members symbols', async () => {
    const src = [
      "var res = Object.create(http.ServerResponse.prototype);", // 1
      'module.exports = res;', // 2
      'res.send = function send(body) { var chunk = body; return chunk; };', // 3
      'Router.prototype.handle = function (req) {};', // 4
      'exports.isAbsolute = function (path) {};', // 5
      'exports.etag = createETagGenerator({ weak: false });', // 6
      'ns.Type.parse = (text) => text;', // 7
      'helper = function () {};', // 8
    ].join('\n');
    expect(await outline('lib/response.js', src)).toEqual([
      ['res', 'Variable', null, 1],
      ['res.send', 'Method', 'res', 3],
      ['Router.handle', 'Method', 'Router', 4],
      ['isAbsolute', 'Function', null, 5],
      ['etag', 'Variable', null, 6],
      ['ns.Type.parse', 'Method', 'ns.Type', 7],
      ['helper', 'Function', null, 8],
    ]);
    const r = await extractFile('lib/response.js', src);
    expect(r.symbols.find((s) => s.name === 'isAbsolute')?.is_exported).toBe(true);
  }, SLOW);

  it('keeps the members of a module-level object and drops those built inside a function', async () => {
    const src = [
      'const api = {', // 1
      '  get(id) { return id; },', // 2
      "  'x-limit': 10,", // 3
      '};', // 4
      'function build() {', // 5
      '  return { local: 1, run() {} };', // 6
      '}', // 7
    ].join('\n');
    expect(await outline('src/api.js', src)).toEqual([
      ['api', 'Constant', null, 1],
      ['api.get', 'Function', 'api', 2],
      ['api.x-limit', 'Field', 'api', 3],
      ['build', 'Function', null, 5],
      ['build.run', 'Function', 'build', 6],
    ]);
  }, SLOW);

  it('drops variables of callbacks and IIFEs but keeps their exports and named functions', async () => {
    const src = [
      '(function () {', // 1
      '  var hidden = 1;', // 2
      '  function helper() {}', // 3
      '  exports.shown = hidden;', // 4
      '})();', // 5
      "app.get('/', function (req, res) { const body = {}; res.send(body); });", // 6
      "fs.stat(path, function onstat(err) { var size = 0; });", // 7
    ].join('\n');
    expect(await outline('src/iife.js', src)).toEqual([
      ['helper', 'Function', null, 3],
      ['shown', 'Variable', null, 4],
      ['onstat', 'Function', null, 7],
    ]);
  }, SLOW);
});

describe('JavaScript and TypeScript fields', () => {
  it('makes TypeScript class fields and interface properties fields of their type', async () => {
    const src = [
      'export interface Options {', // 1
      '  readonly name: string;', // 2
      '  retries?: number;', // 3
      '}', // 4
      'export class Client {', // 5
      '  private pending: number = 0;', // 6
      '  handler = () => 1;', // 7
      '}', // 8
      'type Point = { x: number };', // 9
    ].join('\n');
    expect(await outline('src/client.ts', src)).toEqual([
      ['Options', 'Interface', null, 1],
      ['Options.name', 'Field', 'Options', 2],
      ['Options.retries', 'Field', 'Options', 3],
      ['Client', 'Class', null, 5],
      ['Client.pending', 'Field', 'Client', 6],
      ['Client.handler', 'Method', 'Client', 7],
      ['Point', 'Type', null, 9],
      ['Point.x', 'Field', 'Point', 9],
    ]);
    const r = await extractFile('src/client.ts', src);
    expect(r.symbols.find((s) => s.name === 'pending')?.is_exported).toBe(false);
  }, SLOW);

  it('makes JavaScript class fields fields, #private ones unexported', async () => {
    const r = await extractFile('src/queue.js', 'export class Queue {\n  size = 0;\n  #items = [];\n}\n');
    expect(r.symbols.map((s) => [s.qualified_name, s.kind, s.is_exported])).toEqual([
      ['Queue', 'Class', true],
      ['Queue.size', 'Field', true],
      ['Queue.#items', 'Field', false],
    ]);
  }, SLOW);
});
