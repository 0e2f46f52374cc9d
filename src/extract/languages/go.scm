; Go tags. Vocabulary: ../captures.ts. Exported = capitalised (table row);
; methods are qualified by their receiver type through @owner.

((comment)* @doc
  .
  [
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
    (type_declaration (type_spec name: (type_identifier) @name type: (struct_type))) @definition.struct
    (type_declaration (type_spec name: (type_identifier) @name type: (interface_type))) @definition.interface
    (type_declaration
      (type_spec name: (type_identifier) @name type: (_) @_t)
      (#not-match? @_t "^(struct|interface)\\b")) @definition.type
    (type_declaration (type_alias name: (type_identifier) @name)) @definition.type
    (const_declaration (const_spec name: (identifier) @name)) @definition.constant
    (var_declaration (var_spec name: (identifier) @name)) @definition.variable
    (var_declaration (var_spec_list (var_spec name: (identifier) @name))) @definition.variable
  ])

((comment)* @doc
  .
  (method_elem name: (field_identifier) @name) @definition.method)

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
