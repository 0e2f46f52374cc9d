; C++ tags, after c.scm (the constructs C++ shares with C). Vocabulary: ../captures.ts.
; Free functions are exported unless `static`; types, namespaces and members count as
; exported (access sections are not tracked). Out-of-line definitions (`void A::f()`) are
; qualified by their scope through @owner (the engine drops the trailing name from it).

; ---- functions and methods defined in place (members, operators, conversions), templates and
; their specialisations (`void f<char>(…)`), and member declarations ------------------------------------------------------------
([
    (function_definition declarator: [
        (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (function_declarator declarator: (template_function name: (identifier) @name))
        (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
        (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (operator_cast) @name
      ]) @definition.function
    (template_declaration (function_definition declarator: [
        (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (function_declarator declarator: (template_function name: (identifier) @name))
        (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
        (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (operator_cast) @name
      ])) @definition.function
    (field_declaration declarator: [
        (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
        (function_declarator declarator: (template_function name: (identifier) @name))
        (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
        (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
        (operator_cast) @name
      ]) @definition.method
    (declaration declarator: (operator_cast) @name) @definition.method
    ; a destructor declared in its class: `~Parser();`
    (declaration declarator: (function_declarator declarator: (destructor_name) @name)) @definition.method
  ] @documented)
((function_definition declarator: [
     (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
     (function_declarator declarator: (template_function name: (identifier) @name))
     (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
     (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
     (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
     (operator_cast) @name
   ]) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b"))
((template_declaration (function_definition declarator: [
     (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
     (function_declarator declarator: (template_function name: (identifier) @name))
     (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
     (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
     (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
     (operator_cast) @name
   ])) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b"))
(field_declaration declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (function_declarator declarator: (template_function name: (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
    (operator_cast) @name
  ]) @definition.method @export
(declaration declarator: (function_declarator declarator: (destructor_name) @name)) @definition.method @export

; ---- out-of-line definitions: `R Scope::name(…) {…}` -----------------------------
((function_definition declarator: [
      (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name) @owner)
      (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name)) @owner)
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name) @owner))
      (reference_declarator (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name) @owner))
      (qualified_identifier name: (operator_cast) @name) @owner
    ]) @definition.method @export @documented)

; ---- a static data member defined out of its class: `const size_t A::kUnused;`,
; `T* X<T>::p_ = nullptr;`, `constexpr T X<T>::table[];` (qualified by its scope through @owner)
((declaration declarator: [
      (qualified_identifier name: (identifier) @name) @owner
      (qualified_identifier name: (qualified_identifier name: (identifier) @name)) @owner
      (init_declarator declarator: (qualified_identifier name: (identifier) @name) @owner)
      (init_declarator declarator: (qualified_identifier name: (qualified_identifier name: (identifier) @name)) @owner)
      (array_declarator declarator: (qualified_identifier name: (identifier) @name) @owner)
      (init_declarator declarator: (array_declarator declarator: (qualified_identifier name: (identifier) @name) @owner))
      (pointer_declarator declarator: (qualified_identifier name: (identifier) @name) @owner)
      (init_declarator declarator: (pointer_declarator declarator: (qualified_identifier name: (identifier) @name) @owner))
      (init_declarator declarator: (reference_declarator (qualified_identifier name: (identifier) @name) @owner))
    ]) @definition.field @export @documented
  ; a real scope, not two words the parser joined with a MISSING `::` (`__THROW __attribute_pure__ __nonnull (…)`)
  (#match? @owner "::"))

; ---- types and namespaces ------------------------------------------------------
([
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    ; a nested type defined out of line: `class Outer::Inner { … }`
    (class_specifier name: (qualified_identifier scope: (_) @owner name: (type_identifier) @name) body: (_)) @definition.class
    (struct_specifier name: (qualified_identifier scope: (_) @owner name: (type_identifier) @name) body: (_)) @definition.struct
    ; a specialisation: `template <> struct formatter<T*> { … }`
    (class_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class
    (struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct
    (union_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct
    ; a typedef of a reference: `typedef const T& reference;`, `typedef std::ostream& (*Manip)(std::ostream&);`
    (type_definition declarator: [
      (reference_declarator (type_identifier) @name)
      (reference_declarator (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type
    (alias_declaration name: (type_identifier) @name) @definition.type
    (namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module
    (template_declaration [
      (class_specifier name: (type_identifier) @name body: (_)) @definition.class
      (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    ])
  ] @export @documented)

; ---- references ----------------------------------------------------------------
(call_expression function: (qualified_identifier) @name) @reference.call
(call_expression function: (template_function name: (_) @name)) @reference.call
(new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.call

(using_declaration "namespace" (_) @import.source) @reference.import

(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.inherit
