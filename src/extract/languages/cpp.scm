; C++ tags. Vocabulary: ../captures.ts. Exported = not `static` for free functions
; and globals; types, namespaces and members count as exported (access sections
; are not tracked). Out-of-line definitions (`void A::f()`) are qualified by their
; scope through @owner (the engine drops the trailing name from it).

; ---- functions and methods defined in place, and declarations ----------------
((comment)* @doc
  .
  [
    (function_definition
      declarator: [
        (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
        (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))
      ]) @definition.function
    (template_declaration
      (function_definition
        declarator: [
          (function_declarator declarator: [(identifier) (field_identifier)] @name)
          (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
          (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))
        ])) @definition.function
    (field_declaration
      declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method
    (declaration
      declarator: (function_declarator declarator: (identifier) @name)) @definition.function
  ])

((function_definition
   declarator: [
     (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
     (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
     (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))
   ]) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b"))
((template_declaration
   (function_definition
     declarator: [
       (function_declarator declarator: [(identifier) (field_identifier)] @name)
       (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
     ])) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b"))
(field_declaration
  declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method @export

; ---- out-of-line definitions: `R Scope::name(…) {…}` -----------------------------
((comment)* @doc
  .
  (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: [(identifier) (destructor_name) (operator_name)] @name) @owner)
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)) @owner)
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: [(identifier) (destructor_name) (operator_name)] @name) @owner))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: [(identifier) (destructor_name) (operator_name)] @name) @owner))
    ]) @definition.method @export)

; ---- types and namespaces ------------------------------------------------------
((comment)* @doc
  .
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    ; a nested type defined out of line: `class Outer::Inner { … }`
    (class_specifier name: (qualified_identifier scope: (_) @owner name: (type_identifier) @name) body: (_)) @definition.class
    (struct_specifier name: (qualified_identifier scope: (_) @owner name: (type_identifier) @name) body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
    (alias_declaration name: (type_identifier) @name) @definition.type
    (type_definition declarator: (type_identifier) @name) @definition.type
    (namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module
    (template_declaration [
      (class_specifier name: (type_identifier) @name body: (_)) @definition.class
      (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    ])
  ] @export)

; a typedef of a pointer, an array or a function (pointer): `typedef void (*cb_t)(int);`
((comment)* @doc
  .
  (type_definition
    declarator: [
      (pointer_declarator declarator: (type_identifier) @name)
      (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type @export)

; ---- struct, union and class members (`int a, b;` are two; a function pointer too)
((comment)* @doc
  .
  (field_declaration
    declarator: [
      (field_identifier) @name
      (pointer_declarator declarator: (field_identifier) @name)
      (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
      (array_declarator declarator: (field_identifier) @name)
      (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
      (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
      (reference_declarator (field_identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    ]) @definition.field @export)

(translation_unit (declaration declarator: [(identifier) @name (init_declarator declarator: (identifier) @name)]) @definition.variable)
((translation_unit (declaration declarator: [(identifier) @name (init_declarator declarator: (identifier) @name)]) @definition.variable @export)
  (#not-match? @export "^[^=;]*\\bstatic\\b"))
(((comment)* @doc . (preproc_def name: (identifier) @name) @definition.constant @export)
  (#not-match? @name "_H(PP)?(_|__)?$|_INCLUDED$"))

; ---- references ----------------------------------------------------------------
(call_expression function: [(identifier) (field_expression) (qualified_identifier)] @name) @reference.call
(call_expression function: (template_function name: (_) @name)) @reference.call
(new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.call

(preproc_include path: [(string_literal) (system_lib_string)] @import.source) @reference.import
(using_declaration "namespace" (_) @import.source) @reference.import

(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.inherit
