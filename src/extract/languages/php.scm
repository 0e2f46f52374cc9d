; PHP tags. Vocabulary: ../captures.ts. Top-level declarations are exported;
; members are exported unless `private` or `protected`. Namespaces are not symbols.

([
    (class_declaration name: (name) @name) @definition.class
    (interface_declaration name: (name) @name) @definition.interface
    (trait_declaration name: (name) @name) @definition.trait
    (enum_declaration name: (name) @name) @definition.enum
    (function_definition name: (name) @name) @definition.function
    (method_declaration name: (name) @name) @definition.method
    (const_declaration (const_element (name) @name)) @definition.constant
    (property_declaration (property_element name: (variable_name (name) @name))) @definition.field
  ] @documented)

[
  (class_declaration name: (name) @name) @definition.class
  (interface_declaration name: (name) @name) @definition.interface
  (trait_declaration name: (name) @name) @definition.trait
  (enum_declaration name: (name) @name) @definition.enum
  (function_definition name: (name) @name) @definition.function
  (const_declaration (const_element (name) @name)) @definition.constant
] @export
((method_declaration name: (name) @name) @definition.method @export
  (#not-match? @export "^[^(]*\\b(private|protected)\\b"))
((property_declaration (property_element name: (variable_name (name) @name))) @definition.field @export
  (#not-match? @export "^[^$]*\\b(private|protected)\\b"))

; ---- references ----------------------------------------------------------------
(function_call_expression function: [(name) (qualified_name)] @name) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call
(object_creation_expression [(name) (qualified_name)] @name) @reference.call

(namespace_use_declaration
  (namespace_use_clause (name) @import.source)) @reference.import
(namespace_use_declaration
  (namespace_use_clause (qualified_name prefix: (namespace_name) @import.source (name) @import.name))) @reference.import
(namespace_use_declaration
  (namespace_name) @import.source
  body: (namespace_use_group (namespace_use_clause [(name) (qualified_name)] @import.name))) @reference.import
([(require_expression) (require_once_expression) (include_expression) (include_once_expression)]
  (string (string_content) @import.source)) @reference.import

(base_clause [(name) (qualified_name)] @name) @reference.inherit
(class_interface_clause [(name) (qualified_name)] @name) @reference.inherit
(use_declaration [(name) (qualified_name)] @name) @reference.inherit
