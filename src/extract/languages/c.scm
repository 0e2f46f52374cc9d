; C and C++ tags, shared: both languages are parsed with the C++ grammar and run this query
; followed by cpp.scm (the C++-only constructs), so a C++ header named `.h` reads as well as
; a `.hpp`. Vocabulary: ../captures.ts. Exported = not `static` (functions, globals); types,
; fields and macros are exported.

; ---- functions and prototypes --------------------------------------------------
([
    (function_definition
      declarator: [
        (function_declarator declarator: (identifier) @name)
        ; a name built by a macro: `DYNARRAY_NAME (add) (struct list *l) {…}`
        (function_declarator declarator: (function_declarator declarator: (identifier) @name))
        (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
        (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      ]) @definition.function
    (declaration
      declarator: [
        (function_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      ]) @definition.function
  ] @documented)

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

; ---- types: `typedef struct x {…} x_t;` names the struct node twice (x and x_t),
; so neither nests under the other ---------------------------------------------------
([
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct @export
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct @export
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum @export
    (type_definition
      type: [(struct_specifier name: (_) body: (_)) (union_specifier name: (_) body: (_))] @definition.struct @export
      declarator: (type_identifier) @name)
    (type_definition
      type: (enum_specifier name: (_) body: (_)) @definition.enum @export
      declarator: (type_identifier) @name)
    ; anonymous: the whole typedef is the definition
    (type_definition
      type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_))]
      declarator: (type_identifier) @name) @definition.struct @export
    (type_definition
      type: (enum_specifier !name body: (_))
      declarator: (type_identifier) @name) @definition.enum @export
  ] @documented)
((type_definition type: (_) @_type declarator: (type_identifier) @name) @definition.type @export @documented
  (#not-match? @_type "^(struct|union|enum)[^{;]*\\{"))

; a typedef of a pointer, an array or a function (pointer): `typedef void (*cb_t)(int);`
((type_definition
    declarator: [
      (pointer_declarator declarator: (type_identifier) @name)
      (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (type_identifier) @name))
      (pointer_declarator declarator: (function_declarator declarator: (type_identifier) @name))
      ; `typedef INT8 int8_t;`: the grammar knows the standard integer names as primitive types
      (primitive_type) @name
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type @export @documented)

; `typedef STACK_OF(X509) X509_STACK;`: a macro call as the type reads as `STACK_OF (X509)`,
; and the name becomes the next statement
((type_definition type: (type_identifier) declarator: (parenthesized_declarator)) @definition.type @export
  .
  (expression_statement . (identifier) @name .))

; ---- struct, union and class members (`int a, b;` are two; a function pointer too)
((field_declaration
    declarator: [
      (field_identifier) @name
      (pointer_declarator declarator: (field_identifier) @name)
      (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
      (array_declarator declarator: (field_identifier) @name)
      (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
      (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
      (reference_declarator (field_identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
      ; a pointer to function pointers: `int (**qual)(OPENSSL_STRING *);`
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))))
      ; a function pointer returning a pointer: `struct chunk *(*chunkfun) (void *, long);`
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))))
    ]) @definition.field @export @documented)

; ---- globals (file level only) ----------------------------------------------------
; `static struct {…} tests[] = {…};`: the variable holds its anonymous type's fields; a named
; type declared with its variable (`struct test_t {…} tests[];`) stays a file-level type
((translation_unit (declaration type: (_) @_type declarator: [
    (identifier) @name
    (init_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (init_declarator declarator: (array_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (identifier) @name)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
  ]) @definition.variable)
  (#not-match? @_type "^(struct|union|enum)\\s+\\w+\\s*\\{"))
((translation_unit (declaration type: (_) @_type declarator: [
    (identifier) @name
    (init_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (init_declarator declarator: (array_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (identifier) @name)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
  ]) @definition.variable @export)
  (#not-match? @_type "^(struct|union|enum)\\s+\\w+\\s*\\{")
  (#not-match? @export "^[^=;]*\\bstatic\\b"))

; ---- macros: object-like ones are constants (header guards excluded) ----------
(((preproc_def name: (identifier) @name) @definition.constant @export @documented)
  (#not-match? @name "_H(PP)?(_|__)?$|_INCLUDED$"))
((preproc_function_def name: (identifier) @name) @definition.function @export @documented)

; ---- references ----------------------------------------------------------------
(call_expression function: [(identifier) (field_expression)] @name) @reference.call
(preproc_include path: [(string_literal) (system_lib_string)] @import.source) @reference.import
