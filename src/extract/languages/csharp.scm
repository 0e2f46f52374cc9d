; C# tags. Vocabulary: ../captures.ts. Exported = `public`; interface members are
; public. Namespaces are not symbols (file-scoped and block namespaces would give
; different names), so a class is `Class`, a method `Class.Method`.

([
    (class_declaration name: (identifier) @name) @definition.class
    (record_declaration name: (identifier) @name) @definition.class
    (struct_declaration name: (identifier) @name) @definition.struct
    (interface_declaration name: (identifier) @name) @definition.interface
    (enum_declaration name: (identifier) @name) @definition.enum
    (delegate_declaration name: (identifier) @name) @definition.type
    (method_declaration name: (identifier) @name) @definition.method
    (constructor_declaration name: (identifier) @name) @definition.method
    (local_function_statement name: (identifier) @name) @definition.function
    (field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
    (event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
    (property_declaration name: (identifier) @name) @definition.field
    (event_declaration name: (identifier) @name) @definition.field
  ] @documented)

[
  (class_declaration (modifier "public") @export name: (identifier) @name) @definition.class
  (record_declaration (modifier "public") @export name: (identifier) @name) @definition.class
  (struct_declaration (modifier "public") @export name: (identifier) @name) @definition.struct
  (interface_declaration (modifier "public") @export name: (identifier) @name) @definition.interface
  (enum_declaration (modifier "public") @export name: (identifier) @name) @definition.enum
  (delegate_declaration (modifier "public") @export name: (identifier) @name) @definition.type
  (method_declaration (modifier "public") @export name: (identifier) @name) @definition.method
  (constructor_declaration (modifier "public") @export name: (identifier) @name) @definition.method
  (field_declaration (modifier "public") @export (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
  (event_field_declaration (modifier "public") @export (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
  (property_declaration (modifier "public") @export name: (identifier) @name) @definition.field
  (event_declaration (modifier "public") @export name: (identifier) @name) @definition.field
]
(interface_declaration body: (declaration_list (method_declaration name: (identifier) @name) @definition.method @export))
(interface_declaration body: (declaration_list [
  (property_declaration name: (identifier) @name)
  (event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name)))
] @definition.field @export))

; `using Alias = Some.Type;` names a type in its file (the name alone: the directive stays
; a file-level import)
(using_directive name: (identifier) @name @definition.type)

((method_declaration
   (attribute_list (attribute name: (identifier) @_a))
   name: (identifier) @name) @definition.method @test
  (#match? @_a "^(Test|Fact|Theory|TestMethod|TestCase|DataTestMethod)$"))

; ---- references ----------------------------------------------------------------
(invocation_expression function: [(identifier) (member_access_expression) (generic_name)] @name) @reference.call
(object_creation_expression type: [(identifier) (qualified_name) (generic_name)] @name) @reference.call

(using_directive !name [(identifier) (qualified_name)] @import.source) @reference.import
(using_directive name: (_) (qualified_name) @import.source) @reference.import

(base_list [(identifier) (qualified_name) (generic_name)] @name) @reference.inherit
