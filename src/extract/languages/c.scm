; C tags (parsed with the C++ grammar). Vocabulary: ../captures.ts.
; Exported = not `static`. Types are taken at file level only, so the struct inside
; `typedef struct x {…} x_t;` is not nested under the typedef (x_t is the Struct).

; ---- functions and prototypes --------------------------------------------------
((comment)* @doc
  .
  [
    (function_definition
      declarator: [
        (function_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
        (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      ]) @definition.function
    (declaration
      declarator: [
        (function_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      ]) @definition.function
  ])

((function_definition
   declarator: [
     (function_declarator declarator: (identifier) @name)
     (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
     (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
   ]) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b"))
((declaration
   declarator: [
     (function_declarator declarator: (identifier) @name)
     (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
   ]) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b"))

; ---- types and globals at file level (also inside #if/#ifdef and extern "C") ----
(translation_unit (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct @export)
(translation_unit (union_specifier name: (type_identifier) @name body: (_)) @definition.struct @export)
(translation_unit (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum @export)
(translation_unit (type_definition declarator: (type_identifier) @name) @definition.type @export)
(translation_unit (type_definition type: [(struct_specifier body: (_)) (union_specifier body: (_))] declarator: (type_identifier) @name) @definition.struct)
(translation_unit (type_definition type: (enum_specifier body: (_)) declarator: (type_identifier) @name) @definition.enum)
(translation_unit (declaration declarator: [(identifier) @name (init_declarator declarator: (identifier) @name)]) @definition.variable)
((translation_unit (declaration declarator: [(identifier) @name (init_declarator declarator: (identifier) @name)]) @definition.variable @export)
  (#not-match? @export "^[^=;]*\\bstatic\\b"))

(preproc_ifdef (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct @export)
(preproc_ifdef (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum @export)
(preproc_ifdef (type_definition declarator: (type_identifier) @name) @definition.type @export)
(preproc_ifdef (type_definition type: [(struct_specifier body: (_)) (union_specifier body: (_))] declarator: (type_identifier) @name) @definition.struct)
(preproc_if (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct @export)
(preproc_if (type_definition declarator: (type_identifier) @name) @definition.type @export)
(linkage_specification body: (declaration_list (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct @export))
(linkage_specification body: (declaration_list (type_definition declarator: (type_identifier) @name) @definition.type @export))

; doc comments for the types above (a comment alone does not make a symbol kept elsewhere)
((comment)+ @doc . (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct)
((comment)+ @doc . (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum)
((comment)+ @doc . (type_definition declarator: (type_identifier) @name) @definition.type)

; ---- macros: object-like ones are constants (header guards excluded) ----------
(((comment)* @doc . (preproc_def name: (identifier) @name) @definition.constant @export)
  (#not-match? @name "_H(_|__)?$|_INCLUDED$"))
((comment)* @doc . (preproc_function_def name: (identifier) @name) @definition.function @export)

; ---- references ----------------------------------------------------------------
(call_expression function: [(identifier) (field_expression)] @name) @reference.call
(preproc_include path: [(string_literal) (system_lib_string)] @import.source) @reference.import
