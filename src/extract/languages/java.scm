; Java tags. Vocabulary: ../captures.ts. Exported = `public` (interface members
; implicitly); tests = methods annotated @Test/@ParameterizedTest/@RepeatedTest.

(([
    (class_declaration name: (identifier) @name) @definition.class
    (record_declaration name: (identifier) @name) @definition.class
    (interface_declaration name: (identifier) @name) @definition.interface
    (annotation_type_declaration name: (identifier) @name) @definition.interface
    (enum_declaration name: (identifier) @name) @definition.enum
    (method_declaration name: (identifier) @name) @definition.method
    (constructor_declaration name: (identifier) @name) @definition.method
    (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
    (constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
  ] @documented))

[
  (class_declaration (modifiers "public") @export name: (identifier) @name) @definition.class
  (record_declaration (modifiers "public") @export name: (identifier) @name) @definition.class
  (interface_declaration (modifiers "public") @export name: (identifier) @name) @definition.interface
  (annotation_type_declaration (modifiers "public") @export name: (identifier) @name) @definition.interface
  (enum_declaration (modifiers "public") @export name: (identifier) @name) @definition.enum
  (method_declaration (modifiers "public") @export name: (identifier) @name) @definition.method
  (constructor_declaration (modifiers "public") @export name: (identifier) @name) @definition.method
  (field_declaration (modifiers "public") @export declarator: (variable_declarator name: (identifier) @name)) @definition.field
]
(interface_body (method_declaration name: (identifier) @name) @definition.method @export)
(interface_body (constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field @export)

((method_declaration
   (modifiers [(marker_annotation name: (identifier) @_a) (annotation name: (identifier) @_a)])
   name: (identifier) @name) @definition.method @test
  (#match? @_a "^(Test|ParameterizedTest|RepeatedTest|TestFactory)$"))

; ---- references ----------------------------------------------------------------
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(method_invocation !object name: (identifier) @name) @reference.call
(object_creation_expression type: [(type_identifier) (scoped_type_identifier) (generic_type)] @name) @reference.call

((import_declaration (scoped_identifier scope: (_) @import.source name: (identifier) @import.name)) @reference.import
  (#not-match? @reference.import "\\*\\s*;$"))
(import_declaration (scoped_identifier) @import.source (asterisk) @import.name) @reference.import

(superclass [(type_identifier) (scoped_type_identifier) (generic_type)] @name) @reference.inherit
(super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @name)) @reference.inherit
(extends_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @name)) @reference.inherit
