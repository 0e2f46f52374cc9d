; Go tags. Vocabulary: ../captures.ts. Exported = capitalised (table row);
; methods are qualified by their receiver type through @owner.

([
    (function_declaration name: (identifier) @name) @definition.function
    (method_declaration
      receiver: (parameter_list
        (parameter_declaration
          type: [
            (type_identifier) @owner
            (pointer_type (type_identifier) @owner)
            (generic_type type: (type_identifier) @owner)
            (pointer_type (generic_type type: (type_identifier) @owner))
          ]))
      name: (field_identifier) @name) @definition.method
    (const_declaration (const_spec name: (identifier) @name)) @definition.constant
    (var_declaration (var_spec name: (identifier) @name)) @definition.variable
    (var_declaration (var_spec_list (var_spec name: (identifier) @name))) @definition.variable
  ] @documented)

((method_elem name: (field_identifier) @name) @definition.method @documented)

; ---- types: `type X …` is one definition; in a group `type ( … )` each spec is one
(((type_declaration [
    (type_spec name: (type_identifier) @name type: (struct_type)) @_s
    (type_alias name: (type_identifier) @name type: (struct_type)) @_s
  ]) @definition.struct @documented)
  (#not-match? @definition.struct "^type\\s*\\("))
(((type_declaration [
    (type_spec name: (type_identifier) @name type: (interface_type)) @_s
    (type_alias name: (type_identifier) @name type: (interface_type)) @_s
  ]) @definition.interface @documented)
  (#not-match? @definition.interface "^type\\s*\\("))
(((type_declaration [
    (type_spec name: (type_identifier) @name type: (_) @_t)
    (type_alias name: (type_identifier) @name type: (_) @_t)
  ]) @definition.type @documented)
  (#not-match? @_t "^(struct|interface)\\b")
  (#not-match? @definition.type "^type\\s*\\("))
; a spec of a group; a lone spec is dropped as the same definition as its declaration
([
    (type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
    (type_alias name: (type_identifier) @name type: (struct_type)) @definition.struct
  ] @documented)
([
    (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
    (type_alias name: (type_identifier) @name type: (interface_type)) @definition.interface
  ] @documented)
(([
    (type_spec name: (type_identifier) @name type: (_) @_t) @definition.type
    (type_alias name: (type_identifier) @name type: (_) @_t) @definition.type
  ] @documented)
  (#not-match? @_t "^(struct|interface)\\b"))

; ---- struct fields (`A, B int` are two); an embedded type is a field named after it
((field_declaration name: (field_identifier) @name) @definition.field @documented)
((field_declaration
    !name
    type: [
      (type_identifier) @name
      (qualified_type name: (type_identifier) @name)
      (pointer_type [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
      (generic_type type: [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
    ]) @definition.field @documented)

; ---- references ----------------------------------------------------------------
(call_expression function: [(identifier) (selector_expression)] @name) @reference.call

(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @import.source)) @reference.import
; an import alias (`st "x/store"`, `.` or `_`) is the one imported name
(import_spec name: (_) @import.name path: (interpreted_string_literal (interpreted_string_literal_content) @import.source)) @reference.import

; embedded struct fields and interfaces
(field_declaration_list
  (field_declaration
    !name
    type: [(type_identifier) (qualified_type) (pointer_type)] @name) @reference.inherit)
(interface_type (type_elem [(type_identifier) (qualified_type)] @name) @reference.inherit)
