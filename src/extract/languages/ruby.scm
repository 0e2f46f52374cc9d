; Ruby tags. Vocabulary: ../captures.ts. Everything is exported (table row);
; `def` at the top level is a Function, inside a class or module a Method.

((comment)* @doc
  .
  [
    (class name: [(constant) (scope_resolution)] @name) @definition.class
    (module name: [(constant) (scope_resolution)] @name) @definition.module
    (method name: (_) @name) @definition.method
    (singleton_method name: (_) @name) @definition.method
  ])

((comment)* @doc
  .
  (assignment left: (constant) @name) @definition.constant)

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
