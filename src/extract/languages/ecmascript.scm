; Shared by the javascript, typescript and tsx queries (appended to each): definitions by
; assignment, object-literal members, named function expressions and local scopes.
; Vocabulary: ../captures.ts.

; ---- definitions by assignment ---------------------------------------------------
; `exports.f = …`, `module.exports.f = …`: a member of the module's exports
((expression_statement
    (assignment_expression
      left: (member_expression object: (_) @_exports property: (property_identifier) @name)
      right: (_)) @definition.variable @export) @documented
  (#match? @_exports "^(module\\.)?exports$"))
((expression_statement
    (assignment_expression
      left: (member_expression object: (_) @_exports property: (property_identifier) @name)
      right: [(function_expression) (arrow_function) (generator_function)]) @definition.function @export) @documented
  (#match? @_exports "^(module\\.)?exports$"))

; `Foo.prototype.bar = …`: a method of Foo
((expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression object: [(identifier) (member_expression)] @owner property: (property_identifier) @_prototype)
        property: (property_identifier) @name)
      right: (_)) @definition.method) @documented
  (#eq? @_prototype "prototype"))

; `res.send = function …`, `ns.Type.parse = (…) => …`: a method of the object
((expression_statement
    (assignment_expression
      left: (member_expression object: [(identifier) (member_expression)] @owner property: (property_identifier) @name)
      right: [(function_expression) (arrow_function) (generator_function)]) @definition.method) @documented
  (#not-match? @owner "^(module\\.exports|exports|this)$|\\.prototype$"))

; `helper = function …` (a variable declared earlier)
((expression_statement
    (assignment_expression
      left: (identifier) @name
      right: [(function_expression) (arrow_function) (generator_function)]) @definition.function) @documented)

; ---- object literals: members of an object that is a declaration's or an assignment's value (or
; a member's); inside a function they are local. Objects passed as arguments are not definitions.
[
  (variable_declarator value: (object (pair key: [(property_identifier) (number)] @name value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
  (assignment_expression right: (object (pair key: [(property_identifier) (number)] @name value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
  (pair value: (object (pair key: [(property_identifier) (number)] @name value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
  (export_statement value: (object (pair key: [(property_identifier) (number)] @name value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
]
[
  (variable_declarator value: (object (pair key: (string (string_fragment) @name) value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
  (assignment_expression right: (object (pair key: (string (string_fragment) @name) value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
  (pair value: (object (pair key: (string (string_fragment) @name) value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
  (export_statement value: (object (pair key: (string (string_fragment) @name) value: [(function_expression) (arrow_function) (generator_function)]) @definition.function))
]
[
  (variable_declarator value: (object (pair key: [(property_identifier) (number)] @name) @definition.field))
  (assignment_expression right: (object (pair key: [(property_identifier) (number)] @name) @definition.field))
  (pair value: (object (pair key: [(property_identifier) (number)] @name) @definition.field))
  (export_statement value: (object (pair key: [(property_identifier) (number)] @name) @definition.field))
]
[
  (variable_declarator value: (object (pair key: (string (string_fragment) @name)) @definition.field))
  (assignment_expression right: (object (pair key: (string (string_fragment) @name)) @definition.field))
  (pair value: (object (pair key: (string (string_fragment) @name)) @definition.field))
  (export_statement value: (object (pair key: (string (string_fragment) @name)) @definition.field))
]
; shorthand members (`{ DIGIT, ALPHA }`)
[
  (variable_declarator value: (object (shorthand_property_identifier) @name @definition.field))
  (assignment_expression right: (object (shorthand_property_identifier) @name @definition.field))
  (pair value: (object (shorthand_property_identifier) @name @definition.field))
  (export_statement value: (object (shorthand_property_identifier) @name @definition.field))
]

; `function name() {}` used as a value (a callback, `module.exports = function name…`)
(function_expression name: (identifier) @name) @definition.function

; ---- local scopes: variables and fields defined inside anonymous functions are not symbols
[(function_expression) (arrow_function) (generator_function)] @scope

; ---- module wrappers: an IIFE that is a whole statement of the program (`(function () {…})()`,
; `;(function () {…}.call(this))`, `!function () {…}()`) and the factory handed to one (UMD) hold
; the module's own definitions, not locals
(program (expression_statement [
  (call_expression function: [
    [(function_expression) (arrow_function)] @wrapper
    (parenthesized_expression [(function_expression) (arrow_function)] @wrapper)
    (member_expression object: [(function_expression) @wrapper (parenthesized_expression (function_expression) @wrapper)])
  ])
  (parenthesized_expression (call_expression function: [
    [(function_expression) (arrow_function)] @wrapper
    (parenthesized_expression [(function_expression) (arrow_function)] @wrapper)
    (member_expression object: [(function_expression) @wrapper (parenthesized_expression (function_expression) @wrapper)])
  ]))
  (unary_expression argument: (call_expression function: [
    [(function_expression) (arrow_function)] @wrapper
    (parenthesized_expression [(function_expression) (arrow_function)] @wrapper)
  ]))
]))
(program (expression_statement [
  (call_expression
    function: [(function_expression) (parenthesized_expression (function_expression))]
    arguments: (arguments [(function_expression) @wrapper (parenthesized_expression (function_expression) @wrapper)]))
  (parenthesized_expression (call_expression
    function: [(function_expression) (parenthesized_expression (function_expression))]
    arguments: (arguments [(function_expression) @wrapper (parenthesized_expression (function_expression) @wrapper)])))
]))
