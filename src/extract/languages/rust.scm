; Rust tags. Vocabulary: ../captures.ts. Exported = `pub` (or a trait's items, or
; methods of a trait impl); methods are qualified by their `impl` type (@owner).

; ---- items, with doc comments (attributes may sit in between) ----------------
(([(line_comment) (block_comment)]* @doc
  .
  (attribute_item)*
  .
  [
    (function_item name: (identifier) @name) @definition.function
    (function_signature_item name: (identifier) @name) @definition.function
    (struct_item name: (type_identifier) @name) @definition.struct
    (union_item name: (type_identifier) @name) @definition.struct
    (enum_item name: (type_identifier) @name) @definition.enum
    (trait_item name: (type_identifier) @name) @definition.trait
    (type_item name: (type_identifier) @name) @definition.type
    (associated_type name: (type_identifier) @name) @definition.type
    (field_declaration name: (field_identifier) @name) @definition.field
    (mod_item name: (identifier) @name) @definition.module
    (const_item name: (identifier) @name) @definition.constant
    (static_item name: (identifier) @name) @definition.variable
    (macro_definition name: (identifier) @name) @definition.function
  ]))

; `pub` items
[
  (function_item (visibility_modifier) @export name: (identifier) @name) @definition.function
  (struct_item (visibility_modifier) @export name: (type_identifier) @name) @definition.struct
  (union_item (visibility_modifier) @export name: (type_identifier) @name) @definition.struct
  (enum_item (visibility_modifier) @export name: (type_identifier) @name) @definition.enum
  (trait_item (visibility_modifier) @export name: (type_identifier) @name) @definition.trait
  (type_item (visibility_modifier) @export name: (type_identifier) @name) @definition.type
  (field_declaration (visibility_modifier) @export name: (field_identifier) @name) @definition.field
  (mod_item (visibility_modifier) @export name: (identifier) @name) @definition.module
  (const_item (visibility_modifier) @export name: (identifier) @name) @definition.constant
  (static_item (visibility_modifier) @export name: (identifier) @name) @definition.variable
]
((attribute_item (attribute (identifier) @_m)) . (macro_definition name: (identifier) @name) @definition.function @export
  (#eq? @_m "macro_export"))

; trait items are as public as the trait; so are the fields of enum variants
(trait_item body: (declaration_list
  [
    (function_item name: (identifier) @name)
    (function_signature_item name: (identifier) @name)
  ] @definition.method @export))
(trait_item body: (declaration_list (associated_type name: (type_identifier) @name) @definition.type @export))
(enum_variant body: (field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field @export))

; ---- methods: qualified by the impl type -------------------------------------
(impl_item
  type: [
    (type_identifier) @owner
    (generic_type type: (type_identifier) @owner)
    (scoped_type_identifier name: (type_identifier) @owner)
  ]
  body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(impl_item
  trait: (_)
  body: (declaration_list (function_item name: (identifier) @name) @definition.method @export))

; ---- tests: #[test], #[tokio::test]…, and #[cfg(test)] modules -----------------
((attribute_item (attribute [(identifier) (scoped_identifier)] @_t))
  .
  (attribute_item)*
  .
  (function_item name: (identifier) @name) @definition.function @test
  (#match? @_t "(^|::)test$"))
((attribute_item (attribute (identifier) @_cfg arguments: (token_tree (identifier) @_t)))
  .
  (mod_item name: (identifier) @name) @definition.module @test
  (#eq? @_cfg "cfg") (#eq? @_t "test"))

; ---- references ----------------------------------------------------------------
(call_expression function: [(identifier) (field_expression) (scoped_identifier)] @name) @reference.call
(call_expression function: (generic_function function: (_) @name)) @reference.call
(macro_invocation macro: [(identifier) (scoped_identifier)] @name) @reference.call

(use_declaration argument: (identifier) @import.source) @reference.import
(use_declaration argument: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)) @reference.import
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name))) @reference.import
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list (_) @import.name))) @reference.import
(use_declaration argument: (use_wildcard (_) @import.source "*" @import.name)) @reference.import

(impl_item
  trait: [(type_identifier) (scoped_type_identifier) (generic_type)] @name
  type: [
    (type_identifier) @owner
    (generic_type type: (type_identifier) @owner)
    (scoped_type_identifier name: (type_identifier) @owner)
  ]) @reference.inherit
(trait_item bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @name)) @reference.inherit
