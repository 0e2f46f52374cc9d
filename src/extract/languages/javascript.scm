; JavaScript tags (.js .jsx .mjs .cjs; JSX calls come from jsx.scm). Vocabulary: ../captures.ts.

; ---- declarations, with the doc comments right before them -------------------
([
    (function_declaration name: (identifier) @name) @definition.function
    (generator_function_declaration name: (identifier) @name) @definition.function
    (class_declaration name: (identifier) @name) @definition.class
  ] @documented)

((export_statement
    declaration: [
      (function_declaration name: (identifier) @name) @definition.function
      (generator_function_declaration name: (identifier) @name) @definition.function
      (class_declaration name: (identifier) @name) @definition.class
    ]) @export @documented)

; a named class expression (`module.exports = class Application …`)
(class name: (identifier) @name) @definition.class

((export_statement
    value: [
      (class name: (identifier) @name) @definition.class
      (function_expression name: (identifier) @name) @definition.function
    ]) @export @documented)

; ---- class members (public unless #private) ----------------------------------
([
    (method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
    (field_definition
      property: [(property_identifier) (private_property_identifier)] @name
      value: [(arrow_function) (function_expression)]) @definition.method
  ] @documented)
(method_definition name: (property_identifier) @name) @definition.method @export
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method @export
; fields (a function-valued field is a method: the stronger kind wins)
((field_definition property: [(property_identifier) (private_property_identifier)] @name) @definition.field @documented)
(field_definition property: (property_identifier) @name) @definition.field @export

; `this.x = …` statements of a class's constructor body are its (public) fields; @owner: the class
; holds them. The first one of a name counts (a declared field comes first).
([
  (class_declaration name: (identifier) @owner body: (class_body (method_definition
    name: (property_identifier) @_constructor
    body: (statement_block (expression_statement
      (assignment_expression left: (member_expression object: (this) property: (property_identifier) @name))) @definition.field @export))))
  (class name: (identifier) @owner body: (class_body (method_definition
    name: (property_identifier) @_constructor
    body: (statement_block (expression_statement
      (assignment_expression left: (member_expression object: (this) property: (property_identifier) @name))) @definition.field @export))))
]
  (#eq? @_constructor "constructor"))

; ---- constants and variables (the engine keeps top-level ones); function-valued
; declarations are functions (the stronger kind wins when both match)
((lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant @documented)
([
    (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name))
    (variable_declaration (variable_declarator name: (identifier) @name))
  ] @definition.variable @documented)
((export_statement
    declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant) @export @documented)
((export_statement
    declaration: [
      (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name))
      (variable_declaration (variable_declarator name: (identifier) @name))
    ] @definition.variable) @export @documented)
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function) (function_expression) (generator_function)
      (parenthesized_expression [(arrow_function) (function_expression) (generator_function)])
    ])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function) (function_expression) (generator_function)
      (parenthesized_expression [(arrow_function) (function_expression) (generator_function)])
    ])) @definition.function

; ---- references ----------------------------------------------------------------
(call_expression function: [(identifier) (member_expression)] @name) @reference.call
(new_expression constructor: [(identifier) (member_expression)] @name) @reference.call

(import_statement source: (string (string_fragment) @import.source)) @reference.import
; an aliased specifier (`a as b`) and a namespace import (`* as ns`) keep their local name, as written
(import_statement
  (import_clause (named_imports [(import_specifier !alias name: (_) @import.name) (import_specifier alias: (_)) @import.name]))
  source: (string (string_fragment) @import.source)) @reference.import
(import_statement
  (import_clause (identifier) @import.name)
  source: (string (string_fragment) @import.source)) @reference.import
(import_statement
  (import_clause (namespace_import) @import.name)
  source: (string (string_fragment) @import.source)) @reference.import
(export_statement source: (string (string_fragment) @import.source)) @reference.import
(export_statement
  (export_clause (export_specifier name: (_) @import.name))
  source: (string (string_fragment) @import.source)) @reference.import
(export_statement "*" @import.name source: (string (string_fragment) @import.source)) @reference.import
((call_expression
   function: (identifier) @_require
   arguments: (arguments . (string (string_fragment) @import.source)))
  (#eq? @_require "require")) @reference.import
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.source))) @reference.import

(class_heritage (_) @name) @reference.inherit
