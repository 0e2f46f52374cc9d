import { describe, expect, it } from 'vitest';
import { declaredType, returnType } from '../../../src/graph/resolve/declared';

describe('declared types of parameters and fields', () => {
  it('reads a Java parameter type, generics, annotations and modifiers aside', () => {
    const sig = 'public AllowListPlugin(final AllowList allowedNavigations, @Nullable Map<String, List<Integer>> extra, CordovaPreferences prefs)';
    expect(declaredType('java', 'Method', sig, 'allowedNavigations')).toBe('AllowList');
    expect(declaredType('java', 'Method', sig, 'extra')).toBe('Map');
    expect(declaredType('java', 'Method', sig, 'prefs')).toBe('CordovaPreferences');
    expect(declaredType('java', 'Method', sig, 'missing')).toBeNull();
  });

  it('gives no Java type for arrays and varargs', () => {
    expect(declaredType('java', 'Method', 'void run(String[] args, Plugin... plugins)', 'args')).toBeNull();
    expect(declaredType('java', 'Method', 'void run(String[] args, Plugin... plugins)', 'plugins')).toBeNull();
  });

  it('reads a Java field type, initialiser aside', () => {
    expect(declaredType('java', 'Field', 'private final NativeToJsMessageQueue queue = new NativeToJsMessageQueue()', 'queue')).toBe('NativeToJsMessageQueue');
    expect(declaredType('java', 'Field', 'protected com.x.Store store;', 'store')).toBe('com.x.Store');
  });

  it('reads Go parameters, grouped names, the receiver and pointers', () => {
    expect(declaredType('go', 'Function', 'func lexTop(lx *lexer) stateFn', 'lx')).toBe('lexer');
    expect(declaredType('go', 'Function', 'func join(a, b *node, n int) *node', 'a')).toBe('node');
    expect(declaredType('go', 'Method', 'func (f *FlagSet) VarP(value Value, name, shorthand string)', 'f')).toBe('FlagSet');
    expect(declaredType('go', 'Method', 'func (f *FlagSet) VarP(value Value, name, shorthand string)', 'value')).toBe('Value');
    expect(declaredType('go', 'Function', 'func write(w *bufio.Writer) error', 'w')).toBe('bufio.Writer');
  });

  it('gives no Go type for slices, maps, variadics and functions', () => {
    expect(declaredType('go', 'Function', 'func f(xs []item, m map[string]item, rest ...item, cb func()) error', 'xs')).toBeNull();
    expect(declaredType('go', 'Function', 'func f(xs []item, m map[string]item, rest ...item, cb func()) error', 'm')).toBeNull();
    expect(declaredType('go', 'Function', 'func f(xs []item, m map[string]item, rest ...item, cb func()) error', 'rest')).toBeNull();
    expect(declaredType('go', 'Function', 'func f(xs []item, m map[string]item, rest ...item, cb func()) error', 'cb')).toBeNull();
  });

  it('reads a Go struct field type, tags aside', () => {
    expect(declaredType('go', 'Field', 'formal map[NormalizedName]*Flag', 'formal')).toBeNull();
    expect(declaredType('go', 'Field', 'output io.Writer `json:"-"`', 'output')).toBe('io.Writer');
    expect(declaredType('go', 'Field', 'parent, next *node', 'next')).toBe('node');
  });
});

describe('declared return types', () => {
  it('reads what a Java method returns', () => {
    expect(returnType('java', 'public PluginManager getPluginManager()', 'getPluginManager')).toBe('PluginManager');
    expect(returnType('java', 'public <T> List<T> all(Class<T> c)', 'all')).toBe('List');
    expect(returnType('java', 'public String[] names()', 'names')).toBeNull();
  });

  it('reads the first result of a Go function or method', () => {
    expect(returnType('go', 'func (f *FlagSet) Lookup(name string) *Flag', 'Lookup')).toBe('Flag');
    expect(returnType('go', 'func parse(data string) (p *parser, err error)', 'parse')).toBe('parser');
    expect(returnType('go', 'func open(path string) (*os.File, error)', 'open')).toBe('os.File');
    expect(returnType('go', 'func names() []string', 'names')).toBeNull();
  });

  it('reads Rust parameters through references, lifetimes, generics and Box', () => {
    const sig = "fn into_class_set_item<P: Borrow<Parser>, F: Fn(u8) -> bool>(self, p: &ParserI<'_, P>, mut q: &'a mut ast::Span, b: Box<Rc<Hir>>, f: F) -> Result<ClassSetItem>";
    expect(declaredType('rust', 'Method', sig, 'p')).toBe('ParserI');
    expect(declaredType('rust', 'Method', sig, 'q')).toBe('ast.Span');
    expect(declaredType('rust', 'Method', sig, 'b')).toBe('Hir');
    expect(declaredType('rust', 'Method', sig, 'self')).toBeNull();
    expect(returnType('rust', 'pub fn parser(&self) -> &crate::ast::parse::Parser where P: Clone', 'parser')).toBe('crate.ast.parse.Parser');
  });

  it('gives no Rust project type for std wrappers, slices, tuples and Self', () => {
    const sig = 'fn f(a: Option<Foo>, b: &[Foo], e: (Foo, Bar)) -> Self';
    expect(declaredType('rust', 'Function', sig, 'a')).toBe('Option');
    expect(declaredType('rust', 'Function', sig, 'b')).toBeNull();
    expect(declaredType('rust', 'Function', sig, 'e')).toBeNull();
    expect(returnType('rust', sig, 'f')).toBeNull();
  });

  it('reads the trait bounding a Rust parameter: impl, dyn and type parameters', () => {
    expect(declaredType('rust', 'Function', 'pub fn visit<V: Visitor>(ast: &Ast, mut visitor: V) -> Result<V::Output, V::Err>', 'visitor')).toBe('Visitor');
    expect(declaredType('rust', 'Function', "fn walk<'a, V>(v: &mut V) where V: crate::ast::Visitor + Clone", 'v')).toBe('crate.ast.Visitor');
    expect(declaredType('rust', 'Function', 'fn f(a: impl Visitor<Output = ()>, b: &mut dyn Printer, c: T)', 'a')).toBe('Visitor');
    expect(declaredType('rust', 'Function', 'fn f(a: impl Visitor<Output = ()>, b: &mut dyn Printer, c: T)', 'b')).toBe('Printer');
    // A lifetime bound is no trait: the parameter names itself, which is no project type.
    expect(declaredType('rust', 'Function', "fn f<T: 'static>(c: T)", 'c')).toBe('T');
  });

  it('reads a Rust struct field type, visibility aside', () => {
    expect(declaredType('rust', 'Field', 'pub(crate) parser: Parser', 'parser')).toBe('Parser');
    expect(declaredType('rust', 'Field', "pattern: &'s str", 'pattern')).toBe('str');
    expect(declaredType('rust', 'Field', 'stack: RefCell<Vec<GroupState>>', 'other')).toBeNull();
  });
});
