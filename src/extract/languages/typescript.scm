; TypeScript tags (also the base of tsx). Capture vocabulary: see ../captures.ts.

; ---- declarations, with the doc comments right before them -------------------
([
    (function_declaration name: (identifier) @name) @definition.function
    (generator_function_declaration name: (identifier) @name) @definition.function
    (function_signature name: (identifier) @name) @definition.function
    (class_declaration name: (type_identifier) @name) @definition.class
    (abstract_class_declaration name: (type_identifier) @name) @definition.class
    (interface_declaration name: (type_identifier) @name) @definition.interface
    (enum_declaration name: (identifier) @name) @definition.enum
    (type_alias_declaration name: (type_identifier) @name) @definition.type
    (internal_module name: (identifier) @name) @definition.module
    (module name: (identifier) @name) @definition.module
  ] @documented)

; the same declarations behind `export`: marks them exported and widens them to the keyword
((export_statement
    declaration: [
      (function_declaration name: (identifier) @name) @definition.function
      (generator_function_declaration name: (identifier) @name) @definition.function
      (function_signature name: (identifier) @name) @definition.function
      (class_declaration name: (type_identifier) @name) @definition.class
      (abstract_class_declaration name: (type_identifier) @name) @definition.class
      (interface_declaration name: (type_identifier) @name) @definition.interface
      (enum_declaration name: (identifier) @name) @definition.enum
      (type_alias_declaration name: (type_identifier) @name) @definition.type
      (internal_module name: (identifier) @name) @definition.module
    ]) @export @documented)

; a named class expression (`module.exports = class Application …`)
(class name: (type_identifier) @name) @definition.class

((export_statement
    value: [
      (class name: (type_identifier) @name) @definition.class
      (function_expression name: (identifier) @name) @definition.function
    ]) @export @documented)

; ---- class and interface members ---------------------------------------------
([
    (method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
    (method_signature name: (property_identifier) @name) @definition.method
    (abstract_method_signature name: (property_identifier) @name) @definition.method
    (public_field_definition
      name: [(property_identifier) (private_property_identifier)] @name
      value: [(arrow_function) (function_expression)]) @definition.method
  ] @documented)

; members are public unless `private`/`protected` or `#named`
((method_definition name: (property_identifier) @name) @definition.method @export
  (#not-match? @export "^(private|protected)\\b"))
((abstract_method_signature name: (property_identifier) @name) @definition.method @export
  (#not-match? @export "^(private|protected)\\b"))
((public_field_definition
   name: (property_identifier) @name
   value: [(arrow_function) (function_expression)]) @definition.method @export
  (#not-match? @export "^(private|protected)\\b"))
(method_signature name: (property_identifier) @name) @definition.method @export
; a construct signature (`new (…): T` in an interface) is the method `new`
((construct_signature "new" @name) @definition.method @documented)
(construct_signature "new" @name) @definition.method @export

; fields and property signatures (a function-valued field is a method: the stronger kind wins)
([
    (public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.field
    (property_signature name: (property_identifier) @name) @definition.field
  ] @documented)
((public_field_definition name: (property_identifier) @name) @definition.field @export
  (#not-match? @export "^(private|protected)\\b"))
(property_signature name: (property_identifier) @name) @definition.field @export
; constructor parameter properties (`constructor(private readonly x: T)`) are fields of the class
; (@owner: the class, not the constructor, holds them); public ones are exported
; (`_`: the class, abstract class or class expression, the only nodes with a `class_body`; a wildcard
; costs no analysis when the query is compiled, where the three alternatives cost three)
((_ name: (type_identifier) @owner body: (class_body (method_definition
    name: (property_identifier) @_constructor
    parameters: (formal_parameters
      [
        (required_parameter (accessibility_modifier) pattern: (identifier) @name)
        (required_parameter "readonly" pattern: (identifier) @name)
        (optional_parameter (accessibility_modifier) pattern: (identifier) @name)
        (optional_parameter "readonly" pattern: (identifier) @name)
      ] @definition.field))))
  (#eq? @_constructor "constructor"))
((_ name: (type_identifier) @owner body: (class_body (method_definition
    name: (property_identifier) @_constructor
    parameters: (formal_parameters
      [
        (required_parameter (accessibility_modifier) @export pattern: (identifier) @name)
        (optional_parameter (accessibility_modifier) @export pattern: (identifier) @name)
      ] @definition.field))))
  (#eq? @_constructor "constructor")
  (#eq? @export "public"))

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

(extends_clause value: (_) @name) @reference.inherit
(implements_clause (_) @name) @reference.inherit
(extends_type_clause type: (_) @name) @reference.inherit

; ---- the parameters of a function type (`make: (params: { path: string }) => T`): the fields of
; an inline parameter type are not members of anything one looks up
(function_type parameters: (formal_parameters) @parameters)
