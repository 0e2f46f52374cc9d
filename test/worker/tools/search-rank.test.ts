import { beforeAll, describe, expect, it } from 'vitest';
import { nameRankOf } from '../../../src/db/search-rank';
import { splitQualified } from '../../../src/util/qualified-ref';
import { rest, type Json } from '../helpers';

const PROJECT = 'search-rank';

// Shapes met in real repositories: a CLI library's Command struct among its many methods and
// helpers, Config types among lower-case config functions, the same names in tests and examples.
const FILES: Record<string, string> = {
  'command.go': [
    'package cobra',
    '',
    '// Command is just that, a command for your application.',
    'type Command struct {',
    '\tUse string',
    '}',
    '',
    '// Execute uses the args and runs through the command tree finding appropriate matches for commands.',
    'func (c *Command) Execute() error { return nil }',
    '',
    '// AddCommand adds one or more commands to this parent command.',
    'func (c *Command) AddCommand(cmds ...*Command) {}',
    '',
    '// Commands returns a sorted slice of child commands.',
    'func (c *Command) Commands() []*Command { return nil }',
    '',
    '// CommandPath returns the full path to this command.',
    'func (c *Command) CommandPath() string { return "" }',
    '',
    '// HasSubCommands determines if the command has children commands.',
    'func (c *Command) HasSubCommands() bool { return false }',
    '',
  ].join('\n'),
  'command_test.go': [
    'package cobra',
    '',
    'type Command struct{ name string }',
    '',
    'func TestCommand(t *testing.T) {}',
    '',
  ].join('\n'),
  'examples/demo/command.go': 'package demo\n\n// Command of the demo.\ntype Command struct{}\n',
  'pkg/config/config.go': [
    'package config',
    '',
    '// Config holds the settings.',
    'type Config struct {',
    '\tPath string',
    '}',
    '',
    '// Load reads the config file.',
    'func Load(path string) (*Config, error) { return nil, nil }',
    '',
  ].join('\n'),
  'pkg/cache/cache.go': 'package cache\n\n// Load fills the cache.\nfunc Load() {}\n',
  'src/app/config.py': [
    '"""Configuration."""',
    '',
    'def config():',
    '    """Return the config."""',
    '    return {}',
    '',
    'def load(path):',
    '    """Load the config from path."""',
    '    return config()',
    '',
    'class Loader:',
    '    def load(self):',
    '        return load("x")',
    '',
  ].join('\n'),
  'src/app/cache.py': 'def load():\n    """Load the cache (config aside)."""\n    return None\n\ndef config_path():\n    return "config"\n',
  'src/app/settings.py': 'def get_config():\n    """The config, or the default config."""\n    return config_default()\n\ndef config_default():\n    return {}\n',
  'tests/test_config.py': 'class Config:\n    """A config stand-in for the tests."""\n\ndef test_config():\n    pass\n',
  'src/app/model.py': 'Config = dict(debug=False)\n\nclass Config:\n    """The configuration."""\n',
  'lib/router.rb': 'class Router\n  def route(path)\n    path\n  end\nend\n',
  'src/server.ts': [
    'export class Server {',
    '  listen(port: number): void {}',
    '}',
    'export function listen() {}',
    '',
  ].join('\n'),
  // A C++ class declared in its header (documented there) and defined out of line; a C prototype.
  'include/parser.h': [
    '/* Parses whole documents. */',
    'class Parser {',
    ' public:',
    '  /* Releases the buffers. */',
    '  ~Parser();',
    '  /* Parse reads one document: Parse it all, Parse again. */',
    '  int Parse(const char *text);',
    '};',
    '',
    '/* parse_all parses every document: parse_all. */',
    'int parse_all(const char **docs);',
    '',
  ].join('\n'),
  'src/parser.cpp': '#include "parser.h"\n\nParser::~Parser() {}\n\nint Parser::Parse(const char *text) { return 0; }\n',
  'src/parse_all.c': 'int parse_all(const char **docs) {\n  return 0;\n}\n',
};

async function search(args: Json): Promise<Json> {
  const res = await rest('search', { project: PROJECT, limit: 50, ...args });
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
  return res.body;
}

function hits(body: Json): string[] {
  return (body.result.results as Json[]).map((r) => `${r.file_path}::${r.qualified_name}#${r.kind}`);
}

beforeAll(async () => {
  const pushed = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
});

describe('tiers', () => {
  it('puts the definition whose name is the query above its own methods and every word match', async () => {
    const got = hits(await search({ query: 'Command' }));
    expect(got[0]).toBe('command.go::Command#Struct');
    // The methods named with the word Command come after every exact-name definition.
    const exact = got.filter((h) => /::Command#/.test(h));
    expect(got.slice(0, exact.length)).toEqual(exact);
    expect(got.indexOf('command.go::Command.Commands#Method')).toBeGreaterThan(exact.length - 1);
  });

  it('matches the exact name case-sensitively first, then ignoring case', async () => {
    const upper = hits(await search({ query: 'Config' }));
    expect(upper.slice(0, 2).sort()).toEqual(['pkg/config/config.go::Config#Struct', 'src/app/model.py::Config#Class']);
    const lowerAt = upper.indexOf('src/app/config.py::config#Function');
    expect(lowerAt).toBeGreaterThan(upper.indexOf('tests/test_config.py::Config#Class'));
    const lower = hits(await search({ query: 'config' }));
    expect(lower[0]).toBe('src/app/config.py::config#Function');
  });

  it('ranks names that start with the query or hold it as a word above mentions in docstrings', async () => {
    const got = hits(await search({ query: 'config' }));
    const word = got.indexOf('src/app/settings.py::get_config#Function');
    const prefix = got.indexOf('src/app/cache.py::config_path#Function');
    const mention = got.indexOf('src/app/cache.py::load#Function');
    expect(word).toBeGreaterThan(0);
    expect(prefix).toBeGreaterThan(0);
    expect(mention).toBeGreaterThan(Math.max(word, prefix));
  });

  it('keeps scores in result order, one number across tiers', async () => {
    const scores = ((await search({ query: 'Config' })).result.results as Json[]).map((r) => r.score as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});

describe('definitions before declarations', () => {
  it('puts an out-of-line member definition above its declaration in the class', async () => {
    const got = hits(await search({ query: 'Parse' }));
    expect(got.slice(0, 2)).toEqual(['src/parser.cpp::Parser.Parse#Method', 'include/parser.h::Parser.Parse#Method']);
  });

  it('puts a C function above its prototype in a header', async () => {
    const got = hits(await search({ query: 'parse_all' }));
    expect(got.slice(0, 2)).toEqual(['src/parse_all.c::parse_all#Function', 'include/parser.h::parse_all#Function']);
  });

  it('finds a destructor by its name, the definition first', async () => {
    const got = hits(await search({ query: '~Parser' }));
    expect(got.slice(0, 2)).toEqual(['src/parser.cpp::Parser.~Parser#Method', 'include/parser.h::Parser.~Parser#Method']);
    expect(hits(await search({ query: 'Parser::~Parser' }))[0]).toBe('src/parser.cpp::Parser.~Parser#Method');
  });
});

describe('kind weight', () => {
  it('puts a class above a variable of the same name in the same file', async () => {
    const got = hits(await search({ query: 'Config', file_pattern: 'src/app/model.py' }));
    expect(got).toEqual(['src/app/model.py::Config#Class', 'src/app/model.py::Config#Variable']);
  });
});

describe('test, example and vendored paths', () => {
  it('ranks a test file and an example folder below source of the same tier', async () => {
    const got = hits(await search({ query: 'Command', kind: 'Struct' }));
    expect(got[0]).toBe('command.go::Command#Struct');
    expect(got.slice(1).sort()).toEqual(['command_test.go::Command#Struct', 'examples/demo/command.go::Command#Struct']);
    const config = hits(await search({ query: 'Config', kind: 'Class' }));
    expect(config).toEqual(['src/app/model.py::Config#Class', 'tests/test_config.py::Config#Class']);
  });
});

describe('qualified forms', () => {
  const member: [string, string][] = [
    ['Command.Execute', 'command.go::Command.Execute#Method'],
    ['Command::Execute', 'command.go::Command.Execute#Method'],
    ['Command#Execute', 'command.go::Command.Execute#Method'],
    ['Command Execute', 'command.go::Command.Execute#Method'],
    ['Loader.load', 'src/app/config.py::Loader.load#Method'],
    ['Server.listen', 'src/server.ts::Server.listen#Method'],
    ['Router#route', 'lib/router.rb::Router.route#Method'],
    ['config.Load', 'pkg/config/config.go::Load#Function'],
    ['cache.Load', 'pkg/cache/cache.go::Load#Function'],
    ['config.load', 'src/app/config.py::load#Function'],
    ['cache.load', 'src/app/cache.py::load#Function'],
  ];
  for (const [query, first] of member) {
    it(`finds ${first} first for ${query}`, async () => {
      const body = await search({ query });
      expect(hits(body)[0]).toBe(first);
      expect(body.result.total).toBeGreaterThanOrEqual(1);
    });
  }

  it('counts a member found through its folder or module in total', async () => {
    const body = await search({ query: 'cache.Load', limit: 1 });
    expect(body.result.total).toBe((await search({ query: 'cache.Load' })).result.results.length);
  });

  it('reads the qualified spellings into owner and name', () => {
    expect(splitQualified('http::Server::listen')).toEqual({ owner: 'http.Server', name: 'listen', separator: '::' });
    expect(splitQualified('Class#method')).toEqual({ owner: 'Class', name: 'method', separator: '#' });
    expect(splitQualified('Type method')).toEqual({ owner: 'Type', name: 'method', separator: ' ' });
    expect(splitQualified('a b c')).toBeNull();
    expect(nameRankOf('handle*')).toEqual({ name: 'handle', owner: null, prefix: true, pathOwner: false });
    expect(nameRankOf('login OR logout')).toBeNull();
    expect(nameRankOf('pkg.Func')).toMatchObject({ owner: 'pkg', name: 'Func', pathOwner: true });
    expect(nameRankOf('Type method')).toMatchObject({ owner: 'Type', name: 'method', pathOwner: false });
  });
});

describe('name resolution of read symbol= and context name=', () => {
  it('resolves Class.method, Class::method, Class#method and Name@line in a file', async () => {
    for (const symbol of ['Loader.load', 'Loader::load', 'Loader#load', 'load@12']) {
      const res = await rest('read', { project: PROJECT, path: 'src/app/config.py', symbol });
      expect(res.status).toBe(200);
      expect(res.body.result.symbol?.id, symbol).toBe('src/app/config.py::Loader.load#Method');
    }
    const bare = await rest('read', { project: PROJECT, path: 'src/app/config.py', symbol: 'load' });
    expect(bare.body.result.symbol.id).toBe('src/app/config.py::load#Function');
  });

  it('resolves module.func and pkg.Func across the project', async () => {
    const py = await rest('context', { project: PROJECT, name: 'cache.load' });
    expect(py.body.result.symbol?.id).toBe('src/app/cache.py::load#Function');
    const go = await rest('context', { project: PROJECT, name: 'config.Load' });
    expect(go.body.result.symbol?.id).toBe('pkg/config/config.go::Load#Function');
    const member = await rest('context', { project: PROJECT, name: 'Command::Execute' });
    expect(member.body.result.symbol?.id).toBe('command.go::Command.Execute#Method');
  });
});

describe('operator and punctuated names', () => {
  const OPS = 'search-rank-ops';
  const files: Record<string, string> = {
    'lib/vec.rb': [
      'class Vec',
      '  def ==(other)',
      '    true',
      '  end',
      '',
      '  def <=>(other)',
      '    0',
      '  end',
      '',
      '  def [](i)',
      '    i',
      '  end',
      '',
      '  def +@',
      '    self',
      '  end',
      '',
      '  def valid?',
      '    true',
      '  end',
      '',
      '  def valid',
      '    true',
      '  end',
      '',
      '  def name=(v)',
      '    @name = v',
      '  end',
      'end',
      '',
    ].join('\n'),
    'lib/other.rb': 'class Other\n  def ==(other)\n    false\n  end\nend\n',
    // Overloads: the first declaration is the definition a searcher means.
    'src/over.ts': 'export function over(a: string): string;\nexport function over(a: number): number;\n/** The implementation, over and over. */\nexport function over(a: any): any {\n  return a;\n}\n',
    // A package shipping built JavaScript beside its declarations.
    'lib/zed.d.ts': 'export declare class Zed {\n  run(): void;\n}\n',
    'lib/zed.js': 'class Zed {\n  run() {}\n}\nexports.Zed = Zed;\n',
    'lib/zed.umd.js': 'class Zed {\n  run() {}\n}\n',
    // Names without a letter, and private class members.
    'blank.go': 'package p\n\ntype T struct {\n\t_    int\n\tName string\n}\n',
    'src/priv.ts': 'export class Priv {\n  #secret = 1;\n}\nexport function secret() {}\n',
    // One exact definition among many names that start with it.
    'src/widget.ts': ['export class Widget {}', ...'ABCDEFGHIJ'.split('').map((c) => `export function Widget${c}() {}`), ''].join('\n'),
    // One exact definition, and functions that only mention its name in their signature.
    'src/gadget.ts': ['export class Gadget {}', ...'ABC'.split('').map((c) => `export function use${c}(g: Gadget) {}`), ''].join('\n'),
  };

  async function find(args: Json): Promise<Json> {
    const res = await rest('search', { project: OPS, ...args });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    return res.body;
  }

  beforeAll(async () => {
    const pushed = await rest('index', { project: OPS, files: Object.entries(files).map(([path, content]) => ({ path, content })) });
    expect(pushed.status).toBe(200);
  });

  const exact: [string, string][] = [
    ['==', 'lib/other.rb::Other.==#Method'],
    ['Vec#==', 'lib/vec.rb::Vec.==#Method'],
    ['Vec.==', 'lib/vec.rb::Vec.==#Method'],
    ['<=>', 'lib/vec.rb::Vec.<=>#Method'],
    ['Vec#<=>', 'lib/vec.rb::Vec.<=>#Method'],
    ['[]', 'lib/vec.rb::Vec.[]#Method'],
    ['+@', 'lib/vec.rb::Vec.+@#Method'],
    ['valid?', 'lib/vec.rb::Vec.valid?#Method'],
    ['name=', 'lib/vec.rb::Vec.name=#Method'],
    ['_', 'blank.go::T._#Field'],
    ['#secret', 'src/priv.ts::Priv.#secret#Field'],
  ];
  for (const [query, first] of exact) {
    it(`finds ${first} first for ${query}`, async () => {
      const body = await find({ query });
      expect(hits(body)[0]).toBe(first);
    });
  }

  it('finds every definition of an operator name, and a symbol of one by id', async () => {
    const body = await find({ query: '==' });
    expect(hits(body).slice(0, 2).sort()).toEqual(['lib/other.rb::Other.==#Method', 'lib/vec.rb::Vec.==#Method']);
    expect(body.result.total).toBe(2);
    const sym = await rest('symbol', { project: OPS, id: 'lib/vec.rb::Vec.<=>#Method' });
    expect(sym.body.result.symbol.source).toContain('def <=>(other)');
  });

  it('keeps a lone * an invalid query (the prefix syntax), and reads operator names as names', () => {
    expect(splitQualified('*')).toBeNull();
    expect(splitQualified('Type::operator==')).toEqual({ owner: 'Type', name: 'operator==', separator: '::' });
    expect(splitQualified('r#type')).toEqual({ owner: null, name: 'r#type', separator: null });
    expect(splitQualified('Comparable#<=>')).toEqual({ owner: 'Comparable', name: '<=>', separator: '#' });
    expect(splitQualified('parseConfig()')).toBeNull();
  });

  it('puts the first of overloaded declarations first', async () => {
    const body = await find({ query: 'over' });
    expect(hits(body)[0]).toBe('src/over.ts::over#Function');
  });

  it('ranks JavaScript built beside a .d.ts below the declarations', async () => {
    const body = await find({ query: 'Zed' });
    expect(hits(body)[0]).toBe('lib/zed.d.ts::Zed#Class');
  });

  it('answers a name query without limit with its exact hits and at most 5 others, paging on', async () => {
    const body = await find({ query: 'Widget' });
    expect(hits(body)).toHaveLength(6);
    expect(hits(body)[0]).toBe('src/widget.ts::Widget#Class');
    expect(body.result).toMatchObject({ total: 11, has_more: true, next_offset: 6 });
    const all = await find({ query: 'Widget', limit: 20 });
    expect(all.result.results).toHaveLength(11);
  });

  it('leaves text-only matches off a name query without limit, paging on to them', async () => {
    const body = await find({ query: 'Gadget' });
    expect(hits(body)).toEqual(['src/gadget.ts::Gadget#Class']);
    expect(body.result).toMatchObject({ total: 4, has_more: true, next_offset: 1 });
    const all = await find({ query: 'Gadget', limit: 20 });
    expect(hits(all)).toHaveLength(4);
  });
});

describe('a co-tenant project in the same shard', () => {
  // bm25's statistics (how common each word is, the average text length) are the shard's, so another project's
  // symbols change the relevance of this one's hits. The relevance is at most 499 of a score whose other parts
  // step by 500 (tier, source, body, first definition): a co-tenant reorders hits inside one such group only.
  const HOME = 'rank-home';
  const TENANT = 'rank-tenant';
  const home: Record<string, string> = {
    'src/parse.ts': [
      '/** Parses a token. */',
      'export function parseToken(text: string): string { return text; }',
      '/** Reads the next token of the stream and parses it, token by token, until the input ends. */',
      'export function readNext(input: string): string { return input; }',
      'export function parseAll(tokens: string[], token: string): string[] { return tokens; }',
      '/** Token parse helper. */',
      'export const tokenParser = (s: string) => s;',
      'export class TokenParse { parse(token: string) { return token; } }',
      '',
    ].join('\n'),
    'test/parse.test.ts': 'export function parseTokenTest(token: string) { return token; }\n',
    'src/lex.py': '"""Lexer."""\n\ndef parse(token):\n    """Parse one token."""\n    return token\n\ndef token_parse(text, token=None):\n    return text\n',
  };
  // Long docstrings that say "token" often and "parse" never: the word becomes common and texts long.
  const tenant: Record<string, string> = {
    'lib/noise.ts': Array.from(
      { length: 120 },
      (_, i) => `/** ${'token stream token value token kind token position '.repeat(6)} */\nexport function noise${i}(token${i}: string) { return token${i}; }\n`,
    ).join(''),
  };

  async function ranked(query: string): Promise<{ key: string; score: number }[]> {
    const res = await rest('search', { project: HOME, query, limit: 100 });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    return (res.body.result.results as Json[]).map((r) => ({ key: `${r.file_path}::${r.qualified_name}#${r.kind}`, score: r.score as number }));
  }

  it('changes a hit score by less than 500 and never its tier, source, body or first-definition group', async () => {
    const push = async (project: string, files: Record<string, string>) =>
      expect((await rest('index', { project, files: Object.entries(files).map(([path, content]) => ({ path, content })) })).status).toBe(200);
    await push(HOME, home);
    const queries = ['token', 'parse token', 'parse*', 'token*', 'parse OR token', '"parse token"', 'parseToken'];
    const before = await Promise.all(queries.map(ranked));
    await push(TENANT, tenant);
    const after = await Promise.all(queries.map(ranked));
    let moved = 0;
    queries.forEach((query, q) => {
      expect(after[q].map((h) => h.key).sort(), query).toEqual(before[q].map((h) => h.key).sort());
      expect(before[q].length, query).toBeGreaterThan(0);
      const was = new Map(before[q].map((h) => [h.key, h.score]));
      for (const h of after[q]) {
        const old = was.get(h.key) as number;
        expect(Math.abs(h.score - old), `${query}: ${h.key}`).toBeLessThan(500);
        expect(Math.floor(h.score / 500), `${query}: ${h.key}`).toBe(Math.floor(old / 500));
        if (h.score !== old) moved++;
      }
      // So the groups come in the same order: only hits of one group trade places.
      const groups = (hs: { score: number }[]) => hs.map((h) => Math.floor(h.score / 500));
      expect(groups(after[q]), query).toEqual(groups(before[q]));
    });
    // The co-tenant did move relevance (the bound above is what holds, not equality).
    expect(moved).toBeGreaterThan(0);
  });
});

describe('a prefix query whose names fill the page', () => {
  // The page is then sorted from the names starting with the word only (src/db/search.ts, prefixPageHits);
  // a page past them is sorted from every hit. Both give the order of one page holding everything.
  for (const query of ['conf*', 'comm*', 'load*', 'Con*']) {
    it(`pages ${query} one hit at a time in the order of a page of every hit`, async () => {
      const all = await search({ query, limit: 50 });
      const whole = hits(all);
      expect(whole.length).toBeGreaterThan(2);
      const one: string[] = [];
      for (let offset = 0; offset < whole.length; offset++) {
        const page = await search({ query, limit: 1, offset });
        expect(page.result.total).toBe(all.result.total);
        one.push(...hits(page));
      }
      expect(one).toEqual(whole);
    });
  }
});
