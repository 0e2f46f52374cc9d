// Call sites and function definitions of Go files, resolved by the Go type checker (go/types).
//
// Usage: go run go_calls.go DIR FILE... → one JSON object on stdout:
// {"defs": [{"file", "name", "line", "kind"}], "calls": [{"file", "line", "nearest", "outer", "decls", "callee": {"file", "line"}}]}
//
// Files are grouped into packages by folder; a folder's import path is its path under DIR, so
// corpus packages import each other from source. The standard library is type-checked from
// GOROOT's source; any other import is missing, and what depends on it simply does not resolve
// (Config.Error collects errors, so checking goes on). A call's callee is the *types.Func its
// name resolves to (the generic origin for instances); calls through interfaces resolve to the
// interface method, which has no body and is no target. `line` is 1-based, at the callee's
// name; `nearest`/`outer` name the innermost/outermost named enclosing function (a declared
// function or method, or a function literal bound to a name), or null at package level.
package main

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type def struct {
	File string `json:"file"`
	Name string `json:"name"`
	Line int    `json:"line"`
	Kind string `json:"kind"`
}

type pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

type call struct {
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Nearest *string  `json:"nearest"`
	Outer   *string  `json:"outer"`
	Decls   []string `json:"decls"`
	Callee  pos      `json:"callee"`
}

type pkg struct {
	files []*ast.File
	rels  []string
	types *types.Package
	info  *types.Info
	busy  bool
}

func main() {
	root, _ := filepath.Abs(os.Args[1])
	fset := token.NewFileSet()
	pkgs := map[string]*pkg{}
	for _, rel := range os.Args[2:] {
		f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.ParseComments)
		if f == nil || err != nil && f.Name == nil {
			continue
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		// A folder holds one package: files declaring another (`package main` tools, `_test` packages) go apart.
		key := dir
		if p := pkgs[dir]; p != nil && len(p.files) > 0 && p.files[0].Name.Name != f.Name.Name {
			key = dir + "#" + f.Name.Name
		}
		p := pkgs[key]
		if p == nil {
			p = &pkg{}
			pkgs[key] = p
		}
		p.files = append(p.files, f)
		p.rels = append(p.rels, rel)
	}
	std := importer.ForCompiler(fset, "source", nil)
	var check func(key string) *types.Package
	var imp importerFunc = func(path string) (*types.Package, error) {
		if p := pkgs[path]; p != nil {
			if t := check(path); t != nil {
				return t, nil
			}
		}
		// Only the standard library: a dotted first element is a third-party module.
		if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
			return nil, os.ErrNotExist
		}
		return std.Import(path)
	}
	check = func(key string) *types.Package {
		p := pkgs[key]
		if p.types != nil || p.busy {
			return p.types
		}
		p.busy = true
		p.info = &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp, Error: func(error) {}, FakeImportC: true}
		t, _ := conf.Check(key, fset, p.files, p.info)
		p.types = t
		return t
	}
	keys := make([]string, 0, len(pkgs))
	for k := range pkgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rel := func(filename string) (string, bool) {
		r, err := filepath.Rel(root, filename)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	defs := []def{}
	calls := []call{}
	for _, k := range keys {
		check(k)
		p := pkgs[k]
		for i, f := range p.files {
			file := p.rels[i]
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					kind := "Function"
					if fd.Recv != nil {
						kind = "Method"
					}
					defs = append(defs, def{file, fd.Name.Name, fset.Position(fd.Name.Pos()).Line, kind})
				}
			}
			w := &walker{fset: fset, info: p.info, file: file, rel: rel, out: &calls}
			w.walk(f, nil, nil)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.Encode(map[string]interface{}{"defs": defs, "calls": calls})
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

type walker struct {
	fset *token.FileSet
	info *types.Info
	file string
	rel  func(string) (string, bool)
	out  *[]call
}

// walk visits n with the named functions around it (innermost last) and the package-level
// declarations it initialises.
func (w *walker) walk(n ast.Node, names []string, decls []string) {
	ast.Inspect(n, func(c ast.Node) bool {
		if c == n {
			return true
		}
		switch x := c.(type) {
		case *ast.FuncDecl:
			if x.Body != nil {
				w.walk(x.Body, append(append([]string{}, names...), x.Name.Name), decls)
			}
			return false
		case *ast.GenDecl:
			if x.Tok == token.VAR || x.Tok == token.CONST {
				for _, s := range x.Specs {
					vs := s.(*ast.ValueSpec)
					inner := decls
					if len(names) == 0 {
						inner = append([]string{}, decls...)
						for _, id := range vs.Names {
							inner = append(inner, id.Name)
						}
					}
					for i, v := range vs.Values {
						w.value(v, names, inner, vs.Names, i, len(vs.Values))
					}
				}
				return false
			}
		case *ast.AssignStmt:
			for i, v := range x.Rhs {
				var ids []*ast.Ident
				for _, l := range x.Lhs {
					id, _ := l.(*ast.Ident)
					ids = append(ids, id)
				}
				w.value(v, names, decls, ids, i, len(x.Rhs))
			}
			for _, l := range x.Lhs {
				w.walk(l, names, decls)
			}
			return false
		case *ast.KeyValueExpr:
			if lit, ok := x.Value.(*ast.FuncLit); ok {
				if id, ok := x.Key.(*ast.Ident); ok {
					w.walk(lit.Body, append(append([]string{}, names...), id.Name), decls)
					return false
				}
			}
		case *ast.CallExpr:
			w.call(x, names, decls)
		}
		return true
	})
}

// value walks the i-th right-hand side of a declaration or assignment; a function literal
// bound one-to-one to a name is named after it.
func (w *walker) value(v ast.Expr, names, decls []string, ids []*ast.Ident, i, n int) {
	if lit, ok := v.(*ast.FuncLit); ok && n == len(ids) && ids[i] != nil && ids[i].Name != "_" {
		w.walk(lit.Body, append(append([]string{}, names...), ids[i].Name), decls)
		return
	}
	w.walk(&ast.ExprStmt{X: v}, names, decls)
}

func (w *walker) call(x *ast.CallExpr, names, decls []string) {
	fun := x.Fun
	for {
		switch f := fun.(type) {
		case *ast.ParenExpr:
			fun = f.X
			continue
		case *ast.IndexExpr:
			fun = f.X
			continue
		case *ast.IndexListExpr:
			fun = f.X
			continue
		}
		break
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return
	}
	fn, ok := w.info.Uses[id].(*types.Func)
	if !ok {
		return
	}
	fn = fn.Origin()
	at := w.fset.Position(fn.Pos())
	file, ok := w.rel(at.Filename)
	if !ok || !fn.Pos().IsValid() {
		return
	}
	c := call{File: w.file, Line: w.fset.Position(id.Pos()).Line, Decls: append([]string{}, decls...), Callee: pos{file, at.Line}}
	if len(names) > 0 {
		c.Nearest, c.Outer = &names[len(names)-1], &names[0]
	}
	*w.out = append(*w.out, c)
}
