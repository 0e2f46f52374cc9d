"""Call sites and function definitions of Python files, from Python's own `ast`.

Usage: python3 py_calls.py DIR FILE... → one JSON object on stdout:
{"defs": [{"file", "name", "line", "kind"}], "calls": [{"file", "line", "col", "nearest", "outer"}]}
`line` is 1-based, `col` is 0-based in UTF-16 code units (SCIP's default), at the callee's name
(`f` in `f()`, `m` in `a.b.m()`); `nearest`/`outer` name the innermost/outermost enclosing
def or class, or null at module level.
"""
import ast
import json
import os
import sys


def utf16_col(line_text, byte_col):
    prefix = line_text.encode("utf-8")[:byte_col].decode("utf-8", "replace")
    return len(prefix.encode("utf-16-le")) // 2


def main():
    root = sys.argv[1]
    defs, calls = [], []
    for rel in sys.argv[2:]:
        with open(os.path.join(root, rel), encoding="utf-8") as fh:
            text = fh.read()
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        lines = text.split("\n")

        def visit(node, stack, decls):
            for child in ast.iter_child_nodes(node):
                named = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    in_class = bool(stack) and stack[-1][1] == "class"
                    defs.append({"file": rel, "name": child.name, "line": child.lineno, "kind": "Method" if in_class else "Function"})
                if isinstance(child, ast.Call):
                    f = child.func
                    pos = None
                    if isinstance(f, ast.Name):
                        pos = (f.lineno, f.col_offset)
                    elif isinstance(f, ast.Attribute) and f.end_lineno is not None:
                        pos = (f.end_lineno, f.end_col_offset - len(f.attr.encode("utf-8")))
                    if pos is not None:
                        line_text = lines[pos[0] - 1] if pos[0] - 1 < len(lines) else ""
                        calls.append({
                            "file": rel,
                            "line": pos[0],
                            "col": utf16_col(line_text, pos[1]),
                            "nearest": stack[-1][0] if stack else None,
                            "outer": stack[0][0] if stack else None,
                            "decls": list(decls),
                        })
                kind = "class" if isinstance(child, ast.ClassDef) else "def"
                inner = decls
                if isinstance(child, (ast.Assign, ast.AnnAssign)) and (not stack or stack[-1][1] == "class"):
                    targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                    inner = decls + [t.id for t in targets if isinstance(t, ast.Name)]
                visit(child, stack + [(child.name, kind)] if named else stack, inner)

        visit(tree, [], [])
    json.dump({"defs": defs, "calls": calls}, sys.stdout)


main()
