; Bash tags. Vocabulary: ../captures.ts. Every function and top-level variable is
; exported (table row); `readonly`/`declare -r` variables are constants.

((comment)* @doc
  .
  [
    (function_definition name: (word) @name) @definition.function
    (variable_assignment name: (variable_name) @name) @definition.variable
    (declaration_command (variable_assignment name: (variable_name) @name)) @definition.variable
  ])
; a function whose body the grammar could not read (an extglob, a regex) leaves `name ( )`
; in an ERROR, or a command `name` before an ERROR that starts `( )`: the name alone is the
; definition
(ERROR (word) @name @definition.function . "(" . ")")
((command name: (command_name) @name) @definition.function . (ERROR . "(" . ")"))
(declaration_command "readonly" (variable_assignment name: (variable_name) @name)) @definition.constant
((declaration_command (word) @_flag (variable_assignment name: (variable_name) @name)) @definition.constant
  (#match? @_flag "^-[a-zA-Z]*r"))

; ---- references: every command is a call; `source`/`.` import a file -----------
((command name: (command_name) @name) @reference.call
  (#not-match? @name "^(source|\\.)$"))
((command
   name: (command_name) @_source
   argument: [(word) (string) (raw_string)] @import.source) @reference.import
  (#match? @_source "^(source|\\.)$"))
