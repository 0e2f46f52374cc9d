; Ruby tags. Vocabulary: ../captures.ts. Everything is exported (table row);
; `def` at the top level is a Function, inside a class or module a Method.

([
    (class name: (constant) @name) @definition.class
    (class name: (scope_resolution scope: (_) @owner name: (constant) @name)) @definition.class
    (class name: (scope_resolution !scope name: (constant) @name)) @definition.class
    (module name: (constant) @name) @definition.module
    (module name: (scope_resolution scope: (_) @owner name: (constant) @name)) @definition.module
    (module name: (scope_resolution !scope name: (constant) @name)) @definition.module
    (method name: (_) @name) @definition.method
    (singleton_method name: (_) @name) @definition.method
  ] @documented)

((assignment left: (constant) @name) @definition.constant @documented)

; ---- attributes: `attr_accessor :a, :b` defines two fields ------------------------
((call
    !receiver
    method: (identifier) @_attr
    arguments: (argument_list (simple_symbol) @name)) @definition.field @documented
  (#match? @_attr "^attr(_accessor|_reader|_writer)?$"))

; ---- references ----------------------------------------------------------------
(call receiver: (_) @receiver method: [(identifier) (constant)] @name) @reference.call
(call !receiver method: (identifier) @name) @reference.call

((call
   !receiver
   method: (identifier) @_load
   arguments: (argument_list . (string (string_content) @import.source))) @reference.import
  (#match? @_load "^(require|require_relative|load|autoload)$"))

(superclass [(constant) (scope_resolution)] @name) @reference.inherit
((call
   !receiver
   method: (identifier) @_mixin
   arguments: (argument_list [(constant) (scope_resolution)] @name)) @reference.inherit
  (#match? @_mixin "^(include|extend|prepend)$"))
