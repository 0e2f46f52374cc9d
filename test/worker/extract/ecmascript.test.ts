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

  it('keeps the members of a module-level object (shorthand ones too) and drops those built inside a function', async () => {
    const src = [
      'const api = {', // 1
      '  get(id) { return id; },', // 2
      "  'x-limit': 10,", // 3
      '  DIGIT,', // 4
      '};', // 5
      'function build() {', // 6
      '  return { local: 1, run() {}, DIGIT };', // 7
      '}', // 8
    ].join('\n');
    expect(await outline('src/api.js', src)).toEqual([
      ['api', 'Constant', null, 1],
      ['api.get', 'Function', 'api', 2],
      ['api.x-limit', 'Field', 'api', 3],
      ['api.DIGIT', 'Field', 'api', 4],
      ['build', 'Function', null, 6],
      ['build.run', 'Function', 'build', 7],
    ]);
  }, SLOW);

  it('drops variables of callbacks and inner IIFEs but keeps their exports and named functions', async () => {
    const src = [
      'function start() {', // 1
      '  (function () { var hidden = 1; function helper() {} })();', // 2
      '}', // 3
      "define(['dep'], function (dep) {", // 4
      '  var internal = dep;', // 5
      '  exports.shown = internal;', // 6
      '});', // 7
      "app.get('/', function (req, res) { const body = {}; res.send(body); });", // 8
      "fs.stat(path, function onstat(err) { var size = 0; });", // 9
    ].join('\n');
    expect(await outline('src/iife.js', src)).toEqual([
      ['start', 'Function', null, 1],
      ['start.helper', 'Function', 'start', 2],
      ['shown', 'Variable', null, 6],
      ['onstat', 'Function', null, 9],
    ]);
  }, SLOW);

  it('reads a module wrapped in a top-level IIFE or a UMD factory as the module itself', async () => {
    const src = [
      ';(function() {', // 1
      '  var VERSION = "4.17.21";', // 2
      '  var runInContext = (function runInContext(context) {', // 3
      '    function Hash(entries) { var index = -1; }', // 4
      '    Hash.prototype.clear = hashClear;', // 5
      '    [1].forEach(function () { var local = 1; });', // 6
      '    return Hash;', // 7
      '  });', // 8
      '}.call(this));', // 9
      '(function (root, factory) { root.lib = factory(); }(this, function () {', // 10
      '  var Api = { get: function get() {} };', // 11
      '  return Api;', // 12
      '}));', // 13
    ].join('\n');
    expect(await outline('lodash.js', src)).toEqual([
      ['VERSION', 'Variable', null, 2],
      ['runInContext', 'Function', null, 3],
      ['runInContext.Hash', 'Function', 'runInContext', 4],
      ['runInContext.Hash.clear', 'Method', 'runInContext.Hash', 5],
      ['Api', 'Variable', null, 11],
      ['Api.get', 'Function', 'Api', 11],
    ]);
  }, SLOW);

  it('makes a named class expression a class (`module.exports = class Application …`)', async () => {
    const src = 'module.exports = class Application extends Emitter {\n  listen() {}\n};\n';
    expect(await outline('lib/application.js', src)).toEqual([
      ['Application', 'Class', null, 1],
      ['Application.listen', 'Method', 'Application', 2],
    ]);
  }, SLOW);
});

describe('TypeScript overloads', () => {
  it('makes overload signatures and their implementation one symbol from the first signature', async () => {
    const src = [
      'export function timer(due: number): Observable<0>;', // 1
      '/** With a period. */', // 2
      'export function timer(due: number, period: number): Observable<number>;', // 3
      'export function timer(due: number, period?: number): Observable<number> {', // 4
      '  return schedule(due, period);', // 5
      '}', // 6
      'export class Query {', // 7
      '  where(field: string): Query;', // 8
      '  where(fields: string[]): Query;', // 9
      '  where(arg: unknown): Query { return this; }', // 10
      '  limit(n: number): Query { return this; }', // 11
      '}', // 12
    ].join('\n');
    const r = await extractFile('src/timer.ts', src);
    expect(r.symbols.map((s) => [s.qualified_name, s.kind, s.start_line, s.end_line])).toEqual([
      ['timer', 'Function', 1, 6],
      ['Query', 'Class', 7, 12],
      ['Query.where', 'Method', 8, 10],
      ['Query.limit', 'Method', 11, 11],
    ]);
    expect(r.references.find((x) => x.name === 'schedule')?.enclosing).toBe('timer#Function');
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

  it('makes TypeScript constructor parameter properties fields of the class, public ones exported', async () => {
    const src = [
      'export class ReplaySubject<T> {', // 1
      '  private _buffer: T[] = [];', // 2
      '  constructor(', // 3
      '    private _bufferSize = Infinity,', // 4
      '    public readonly scheduler: Scheduler,', // 5
      '    protected window?: number,', // 6
      '    plain: number,', // 7
      '    private _buffer: T[],', // 8
      '  ) {}', // 9
      '}', // 10
    ].join('\n');
    const r = await extractFile('src/ReplaySubject.ts', src);
    expect(r.symbols.map((s) => [s.qualified_name, s.kind, s.parent, s.start_line, s.is_exported])).toEqual([
      ['ReplaySubject', 'Class', null, 1, true],
      ['ReplaySubject._buffer', 'Field', 'ReplaySubject', 2, false],
      ['ReplaySubject.constructor', 'Method', 'ReplaySubject', 3, true],
      ['ReplaySubject._bufferSize', 'Field', 'ReplaySubject', 4, false],
      ['ReplaySubject.scheduler', 'Field', 'ReplaySubject', 5, true],
      ['ReplaySubject.window', 'Field', 'ReplaySubject', 6, false],
    ]);
  }, SLOW);

  it("makes `this.x = …` statements of a JavaScript constructor fields of the class, each name once", async () => {
    const src = [
      'class Argument {', // 1
      '  required = true;', // 2
      '  constructor(name) {', // 3
      '    this.description = name;', // 4
      '    this.required = false;', // 5
      '    this.description = "";', // 6
      '    if (name) this.variadic = true;', // 7
      '  }', // 8
      '  name() { this.seen = true; }', // 9
      '}', // 10
    ].join('\n');
    expect(await outline('lib/argument.js', src)).toEqual([
      ['Argument', 'Class', null, 1],
      ['Argument.required', 'Field', 'Argument', 2],
      ['Argument.constructor', 'Method', 'Argument', 3],
      ['Argument.description', 'Field', 'Argument', 4],
      ['Argument.name', 'Method', 'Argument', 9],
    ]);
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
