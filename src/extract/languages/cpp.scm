; C++ tags, after c.scm (the constructs C++ shares with C). Vocabulary: ../captures.ts.
; Free functions are exported unless `static`; types, namespaces and members count as
; exported (access sections are not tracked). Out-of-line definitions (`void A::f()`) are
; qualified by their scope through @owner (the engine drops the trailing name from it).
; Nodes with children below a pattern's root are wildcards whose type `#kind-eq?` checks, as in
; c.scm (@_q a qualified_identifier, @_tf a template_function, @_ref a reference_declarator…).

; ---- functions and methods defined in place (members, operators, conversions), templates and
; their specialisations (`void f<char>(…)`), and member declarations ------------------------------------------------------------
([
    (function_definition declarator: [
        (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn
        (_ declarator: (_ name: (identifier) @name) @_tf) @_fn
        (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr
        (_ declarator: (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr) @_ptr
        (_ (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ref
        (operator_cast) @name
      ]) @definition.function
    (template_declaration (_ declarator: [
        (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn
        (_ declarator: (_ name: (identifier) @name) @_tf) @_fn
        (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr
        (_ declarator: (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr) @_ptr
        (_ (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ref
        (operator_cast) @name
      ]) @_definition) @definition.function
    (field_declaration declarator: [
        (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn
        (_ declarator: (_ name: (identifier) @name) @_tf) @_fn
        (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr
        (_ declarator: (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr) @_ptr
        (_ (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ref
        (operator_cast) @name
      ]) @definition.method
    (declaration declarator: (operator_cast) @name) @definition.method
    ; a destructor declared in its class: `~Parser();`
    (declaration declarator: (_ declarator: (destructor_name) @name) @_fn) @definition.method
  ] @documented
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_tf template_function) (#kind-eq? @_definition function_definition))
((function_definition declarator: [
     (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn
     (_ declarator: (_ name: (identifier) @name) @_tf) @_fn
     (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr
     (_ declarator: (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr) @_ptr
     (_ (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ref
     (operator_cast) @name
   ]) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b")
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_tf template_function))
((template_declaration (_ declarator: [
     (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn
     (_ declarator: (_ name: (identifier) @name) @_tf) @_fn
     (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr
     (_ declarator: (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr) @_ptr
     (_ (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ref
     (operator_cast) @name
   ]) @_definition) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b")
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_tf template_function) (#kind-eq? @_definition function_definition))
((field_declaration declarator: [
    (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn
    (_ declarator: (_ name: (identifier) @name) @_tf) @_fn
    (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr
    (_ declarator: (_ declarator: (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ptr) @_ptr
    (_ (_ declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @_fn) @_ref
    (operator_cast) @name
  ]) @definition.method @export
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_tf template_function))
((declaration declarator: (_ declarator: (destructor_name) @name) @_fn) @definition.method @export
  (#kind-eq? @_fn function_declarator))

; ---- out-of-line definitions: `R Scope::name(…) {…}` -----------------------------
((function_definition declarator: [
      (_ declarator: (_ name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name) @owner @_q) @_fn
      (_ declarator: (_ name: (_ name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name) @_q) @owner @_q) @_fn
      (_ declarator: (_ declarator: (_ name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name) @owner @_q) @_fn) @_ptr
      (_ (_ declarator: (_ name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name) @owner @_q) @_fn) @_ref
      (_ name: (operator_cast) @name) @owner @_q
    ]) @definition.method @export @documented
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_q qualified_identifier))

; ---- a static data member defined out of its class: `const size_t A::kUnused;`,
; `T* X<T>::p_ = nullptr;`, `constexpr T X<T>::table[];` (qualified by its scope through @owner)
((declaration declarator: [
      (_ name: (identifier) @name) @owner @_q
      (_ name: (_ name: (identifier) @name) @_q) @owner @_q
      (_ declarator: (_ name: (identifier) @name) @owner @_q) @_init_arr_ptr
      (_ declarator: (_ name: (_ name: (identifier) @name) @_q) @owner @_q) @_init
      (_ declarator: (_ declarator: (_ name: (identifier) @name) @owner @_q) @_arr_ptr) @_init
      (_ (_ (_ name: (identifier) @name) @owner @_q) @_ref) @_init
    ]) @definition.field @export @documented
  ; a real scope, not two words the parser joined with a MISSING `::` (`__THROW __attribute_pure__ __nonnull (…)`)
  (#match? @owner "::")
  (#kind-eq? @_q qualified_identifier) (#kind-eq? @_init init_declarator) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_init_arr_ptr init_declarator array_declarator pointer_declarator)
  (#kind-eq? @_arr_ptr array_declarator pointer_declarator))

; ---- types and namespaces ------------------------------------------------------
([
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    ; a nested type defined out of line: `class Outer::Inner { … }`
    (class_specifier name: (_ scope: (_) @owner name: (type_identifier) @name) @_q body: (_)) @definition.class
    (struct_specifier name: (_ scope: (_) @owner name: (type_identifier) @name) @_q body: (_)) @definition.struct
    ; a specialisation: `template <> struct formatter<T*> { … }`
    (class_specifier name: (_ name: (type_identifier) @name) @_tt body: (_)) @definition.class
    (struct_specifier name: (_ name: (type_identifier) @name) @_tt body: (_)) @definition.struct
    (union_specifier name: (_ name: (type_identifier) @name) @_tt body: (_)) @definition.struct
    ; a typedef of a reference: `typedef const T& reference;`, `typedef std::ostream& (*Manip)(std::ostream&);`
    (type_definition declarator: [
      (_ (type_identifier) @name) @_ref
      (_ (_ declarator: (_ (_ declarator: (type_identifier) @name) @_ptr) @_paren) @_fn) @_ref
    ]) @definition.type
    (alias_declaration name: (type_identifier) @name) @definition.type
    (namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module
    (template_declaration [
      (_ name: (type_identifier) @name body: (_)) @definition.class @_class
      (_ name: (type_identifier) @name body: (_)) @definition.struct @_struct
    ])
  ] @export @documented
  (#kind-eq? @_q qualified_identifier) (#kind-eq? @_tt template_type) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_paren parenthesized_declarator) (#kind-eq? @_ptr pointer_declarator)
  (#kind-eq? @_class class_specifier) (#kind-eq? @_struct struct_specifier))

; ---- references ----------------------------------------------------------------
(call_expression function: (qualified_identifier) @name) @reference.call
((call_expression function: (_ name: (_) @name) @_tf) @reference.call
  (#kind-eq? @_tf template_function))
(new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.call

(using_declaration "namespace" (_) @import.source) @reference.import

(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.inherit
