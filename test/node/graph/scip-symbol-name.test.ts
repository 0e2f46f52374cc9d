import { describe, expect, it } from 'vitest';
import { definedName, descriptors, isLocalSymbol } from '../../../src/graph/scip/symbol-name';

describe('SCIP symbol names', () => {
  it('reads the descriptors after the four header fields, escaped names included', () => {
    expect(descriptors('scip-typescript npm pkg 1.0.0 src/`store.ts`/MemoryStore#put().')).toEqual([
      { name: 'src', suffix: 'namespace' },
      { name: 'store.ts', suffix: 'namespace' },
      { name: 'MemoryStore', suffix: 'type' },
      { name: 'put', suffix: 'method' },
    ]);
    expect(descriptors('scip-typescript npm pkg 1.0.0 src/`a.ts`/f().(x)').at(-1)).toEqual({ name: 'x', suffix: 'parameter' });
    expect(descriptors('scip-python python my  app 1 `app.store`/Store#get().').at(-1)).toEqual({ name: 'get', suffix: 'method' });
  });

  it('names what a definition declares, a constructor as constructor with its class as owner', () => {
    expect(definedName('scip-typescript npm pkg 1.0.0 src/`service.ts`/Service#`<constructor>`().')).toEqual({ name: 'constructor', owner: 'Service' });
    expect(definedName('scip-typescript npm pkg 1.0.0 src/`store.ts`/match().')).toEqual({ name: 'match', owner: null });
    expect(definedName('scip-typescript npm pkg 1.0.0 src/`text.ts`/predicate.')).toEqual({ name: 'predicate', owner: null });
  });

  it('reads the symbols of scip-java, scip-go and rust-analyzer: overloads, <init>, quoted packages, impl blocks', () => {
    const java = 'semanticdb maven maven/org.apache.cordova/framework 15.1.0 org/apache/cordova/';
    expect(definedName(`${java}CordovaPlugin#execute(+1).`)).toEqual({ name: 'execute', owner: 'CordovaPlugin' });
    expect(definedName(`${java}PluginResult#\`<init>\`(+2).`)).toEqual({ name: 'constructor', owner: 'PluginResult' });
    expect(definedName('scip-go gomod github.com/spf13/pflag v1.0.5 `github.com/spf13/pflag`/FlagSet#Parse().')).toEqual({ name: 'Parse', owner: 'FlagSet' });
    expect(definedName('scip-go gomod github.com/spf13/pflag v1.0.5 `github.com/spf13/pflag`/NewFlagSet().')).toEqual({ name: 'NewFlagSet', owner: null });
    expect(descriptors('rust-analyzer cargo regex-syntax 0.6.27 ast/parse/impl#[`ParserI`][Visitor]visit_pre().')).toEqual([
      { name: 'ast', suffix: 'namespace' },
      { name: 'parse', suffix: 'namespace' },
      { name: 'impl', suffix: 'type' },
      { name: 'ParserI', suffix: 'type_parameter' },
      { name: 'Visitor', suffix: 'type_parameter' },
      { name: 'visit_pre', suffix: 'method' },
    ]);
    expect(definedName('rust-analyzer cargo regex-syntax 0.6.27 ast/parse/impl#[ParserI]parse().')).toEqual({ name: 'parse', owner: null });
    expect(definedName('rust-analyzer cargo regex-syntax 0.6.27 hir/translate/Translator#')).toEqual({ name: 'Translator', owner: null });
  });

  it('gives no name to locals, modules, parameters and malformed symbols', () => {
    expect(isLocalSymbol('local 4')).toBe(true);
    expect(definedName('local 4')).toBeNull();
    expect(definedName('scip-typescript npm pkg 1.0.0 src/`store.ts`/')).toBeNull();
    expect(definedName('scip-typescript npm pkg 1.0.0 src/`a.ts`/f().(x)')).toBeNull();
    expect(definedName('scip-typescript npm pkg')).toBeNull();
    expect(definedName('scip-typescript npm pkg 1.0.0 src/`unterminated')).toBeNull();
  });
});
