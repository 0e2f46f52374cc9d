; C and C++ tags, shared: both languages are parsed with the C++ grammar and run this query
; followed by cpp.scm (the C++-only constructs), so a C++ header named `.h` reads as well as
; a `.hpp`. Vocabulary: ../captures.ts. Exported = not `static` (functions, globals); types,
; fields and macros are exported.
; A node with children of its own below a pattern's root is a wildcard `(_ …)` whose type
; `#kind-eq?` checks (@_fn a function_declarator, @_ptr a pointer_declarator, @_arr an
; array_declarator, @_paren a parenthesized_declarator, @_init an init_declarator…): the same
; matches, and the query compiles several times faster (see ../parser.ts).

; ---- functions and prototypes --------------------------------------------------
([
    (function_definition
      declarator: [
        (_ declarator: (identifier) @name) @_fn
        ; a name built by a macro: `DYNARRAY_NAME (add) (struct list *l) {…}`
        (_ declarator: (_ declarator: (identifier) @name) @_fn) @_fn_ptr
        (_ declarator: (_ declarator: (_ declarator: (identifier) @name) @_fn) @_ptr) @_ptr
      ]) @definition.function
    (declaration
      declarator: [
        (_ declarator: (identifier) @name) @_fn
        (_ declarator: (_ declarator: (identifier) @name) @_fn) @_ptr
      ]) @definition.function
  ] @documented
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator)
  (#kind-eq? @_fn_ptr function_declarator pointer_declarator))

((function_definition
   declarator: [
     (_ declarator: (identifier) @name) @_fn
     (_ declarator: (_ declarator: (identifier) @name) @_fn) @_ptr
     (_ declarator: (_ declarator: (_ declarator: (identifier) @name) @_fn) @_ptr) @_ptr
   ]) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b")
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator))
((declaration
   declarator: [
     (_ declarator: (identifier) @name) @_fn
     (_ declarator: (_ declarator: (identifier) @name) @_fn) @_ptr
   ]) @definition.function @export
  (#not-match? @export "^[^(]*\\bstatic\\b")
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_ptr pointer_declarator))

; ---- types: `typedef struct x {…} x_t;` names the struct node twice (x and x_t),
; so neither nests under the other ---------------------------------------------------
([
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct @export
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct @export
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum @export
    (type_definition
      type: (_ name: (_) body: (_)) @definition.struct @export @_struct_union
      declarator: (type_identifier) @name)
    (type_definition
      type: (_ name: (_) body: (_)) @definition.enum @export @_enum
      declarator: (type_identifier) @name)
    ; anonymous: the whole typedef is the definition
    (type_definition
      type: (_ !name body: (_)) @_struct_union
      declarator: (type_identifier) @name) @definition.struct @export
    (type_definition
      type: (_ !name body: (_)) @_enum
      declarator: (type_identifier) @name) @definition.enum @export
  ] @documented
  (#kind-eq? @_struct_union struct_specifier union_specifier) (#kind-eq? @_enum enum_specifier))
((type_definition type: (_) @_type declarator: (type_identifier) @name) @definition.type @export @documented
  (#not-match? @_type "^(struct|union|enum)[^{;]*\\{"))

; a typedef of a pointer, an array or a function (pointer): `typedef void (*cb_t)(int);`
((type_definition
    declarator: [
      (_ declarator: (type_identifier) @name) @_ptr_arr_fn
      (_ declarator: (_ declarator: (type_identifier) @name) @_ptr_fn) @_ptr
      (_ declarator: (_ (type_identifier) @name) @_paren) @_fn
      ; `typedef INT8 int8_t;`: the grammar knows the standard integer names as primitive types
      (primitive_type) @name
      (_ declarator: (_ (_ declarator: (type_identifier) @name) @_ptr) @_paren) @_fn
      (_ declarator: (_ declarator: (_ (_ declarator: (type_identifier) @name) @_ptr) @_paren) @_fn) @_ptr
    ]) @definition.type @export @documented
  (#kind-eq? @_ptr pointer_declarator) (#kind-eq? @_fn function_declarator) (#kind-eq? @_paren parenthesized_declarator)
  (#kind-eq? @_ptr_arr_fn pointer_declarator array_declarator function_declarator)
  (#kind-eq? @_ptr_fn pointer_declarator function_declarator))

; `typedef STACK_OF(X509) X509_STACK;`: a macro call as the type reads as `STACK_OF (X509)`,
; and the name becomes the next statement
((type_definition type: (type_identifier) declarator: (parenthesized_declarator)) @definition.type @export
  .
  (_ . (identifier) @name .) @_statement
  (#kind-eq? @_statement expression_statement))

; ---- struct, union and class members (`int a, b;` are two; a function pointer too)
((field_declaration
    declarator: [
      (field_identifier) @name
      (_ declarator: (field_identifier) @name) @_ptr_arr
      (_ declarator: (_ declarator: (field_identifier) @name) @_ptr_arr) @_ptr
      (_ declarator: (_ declarator: (field_identifier) @name) @_arr) @_arr
      (_ (field_identifier) @name) @_ref
      (_ declarator: (_ (_ declarator: (field_identifier) @name) @_ptr) @_paren) @_fn
      ; a pointer to function pointers: `int (**qual)(OPENSSL_STRING *);`
      (_ declarator: (_ (_ declarator: (_ declarator: (field_identifier) @name) @_ptr) @_ptr) @_paren) @_fn
      ; a function pointer returning a pointer: `struct chunk *(*chunkfun) (void *, long);`
      (_ declarator: (_ declarator: (_ (_ declarator: (field_identifier) @name) @_ptr) @_paren) @_fn) @_ptr
      (_ declarator: (_ declarator: (_ declarator: (_ (_ declarator: (field_identifier) @name) @_ptr) @_paren) @_fn) @_ptr) @_ptr
    ]) @definition.field @export @documented
  (#kind-eq? @_ptr pointer_declarator) (#kind-eq? @_arr array_declarator) (#kind-eq? @_ref reference_declarator)
  (#kind-eq? @_fn function_declarator) (#kind-eq? @_paren parenthesized_declarator)
  (#kind-eq? @_ptr_arr pointer_declarator array_declarator))

; ---- globals (file level only) ----------------------------------------------------
; `static struct {…} tests[] = {…};`: the variable holds its anonymous type's fields; a named
; type declared with its variable (`struct test_t {…} tests[];`) stays a file-level type
((translation_unit (_ type: (_) @_type declarator: [
    (identifier) @name
    (_ declarator: (identifier) @name) @_init_arr_ptr
    (_ declarator: (_ declarator: (identifier) @name) @_arr_ptr) @_init
  ]) @definition.variable @_declaration)
  (#not-match? @_type "^(struct|union|enum)\\s+\\w+\\s*\\{")
  (#kind-eq? @_declaration declaration) (#kind-eq? @_init init_declarator)
  (#kind-eq? @_init_arr_ptr init_declarator array_declarator pointer_declarator)
  (#kind-eq? @_arr_ptr array_declarator pointer_declarator))
((translation_unit (_ type: (_) @_type declarator: [
    (identifier) @name
    (_ declarator: (identifier) @name) @_init_arr_ptr
    (_ declarator: (_ declarator: (identifier) @name) @_arr_ptr) @_init
  ]) @definition.variable @export @_declaration)
  (#not-match? @_type "^(struct|union|enum)\\s+\\w+\\s*\\{")
  (#not-match? @export "^[^=;]*\\bstatic\\b")
  (#kind-eq? @_declaration declaration) (#kind-eq? @_init init_declarator)
  (#kind-eq? @_init_arr_ptr init_declarator array_declarator pointer_declarator)
  (#kind-eq? @_arr_ptr array_declarator pointer_declarator))

; ---- macros: object-like ones are constants (header guards excluded) ----------
((preproc_def name: (identifier) @name) @definition.constant @export @documented
  (#not-match? @name "_H(PP)?(_|__)?$|_INCLUDED$"))
((preproc_function_def name: (identifier) @name) @definition.function @export @documented)

; ---- references ----------------------------------------------------------------
(call_expression function: [(identifier) (field_expression)] @name) @reference.call
(preproc_include path: [(string_literal) (system_lib_string)] @import.source) @reference.import
