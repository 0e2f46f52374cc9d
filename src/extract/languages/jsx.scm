
; JSX (appended to the javascript and tsx queries): rendering a component is a call.
; Lower-case names are HTML elements, not calls.
((jsx_opening_element name: [(identifier) (member_expression)] @name) @reference.call
  (#match? @name "^[A-Z]|\\.[A-Z]"))
((jsx_self_closing_element name: [(identifier) (member_expression)] @name) @reference.call
  (#match? @name "^[A-Z]|\\.[A-Z]"))
