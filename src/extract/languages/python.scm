; Python tags. Vocabulary: ../captures.ts.
; A decorated definition is captured whole (decorators are part of its head); the bare
; inner definition then lies inside it and is dropped by the engine as local.

; ---- functions and classes: comments above, or a docstring first in the body --
([
    (function_definition name: (identifier) @name) @definition.function
    (decorated_definition definition: (function_definition name: (identifier) @name)) @definition.function
    (class_definition name: (identifier) @name) @definition.class
    (decorated_definition definition: (class_definition name: (identifier) @name)) @definition.class
  ] @documented)

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.function
(decorated_definition
  definition: (function_definition
    name: (identifier) @name
    body: (block . (expression_statement (string) @doc)))) @definition.function
(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.class
(decorated_definition
  definition: (class_definition
    name: (identifier) @name
    body: (block . (expression_statement (string) @doc)))) @definition.class

; ---- `name = lambda …` is a function (kept inside a function body as well) ----------
(expression_statement (assignment left: (identifier) @name right: (lambda)) @definition.function)

; ---- class attributes (`x = 1`, `x: int = 1`, `x: int`) -------------------------
; (also `a, b = …`, and assignments under an `if`/`else` of the class body)
(class_definition
  body: (block (expression_statement (assignment left: [(identifier) @name (pattern_list (identifier) @name)])) @definition.field))
(class_definition
  body: (block (if_statement [
    consequence: (block (expression_statement (assignment left: (identifier) @name)) @definition.field)
    alternative: (else_clause body: (block (expression_statement (assignment left: (identifier) @name)) @definition.field))
    alternative: (elif_clause consequence: (block (expression_statement (assignment left: (identifier) @name)) @definition.field))
  ])))

; ---- module-level assignments: UPPER_CASE names are constants ------------------
(module
  (expression_statement (assignment left: (identifier) @name)) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
(module
  (expression_statement (assignment left: (identifier) @name)) @definition.variable
  (#not-match? @name "^[A-Z][A-Z0-9_]*$"))

; ---- references ----------------------------------------------------------------
(call function: [(identifier) (attribute)] @name) @reference.call

(import_statement name: (dotted_name) @import.source) @reference.import
; `import a.b as c` and `from m import a as b` keep the alias as written (`a.b as c`, `a as b`)
(import_statement name: (aliased_import name: (dotted_name) @import.source) @import.name) @reference.import
(import_from_statement module_name: (_) @import.source) @reference.import
(import_from_statement
  module_name: (_) @import.source
  name: [(dotted_name) (aliased_import)] @import.name) @reference.import
(import_from_statement module_name: (_) @import.source (wildcard_import) @import.name) @reference.import

(class_definition superclasses: (argument_list [(identifier) (attribute)] @name)) @reference.inherit
