/**
 * Whether a member is a contract its subtypes fulfil: an abstract method (TypeScript, Java, C#,
 * PHP `abstract`; Python `@abstractmethod`) or a member of an interface or trait. A call to a
 * contract runs one of its implementations, so the graph may link such a call to them; a call
 * to a concrete method that subclasses override runs that method as often as an override.
 */

/** Kinds whose members are contracts. */
export const CONTRACT_KINDS: ReadonlySet<string> = new Set(['Interface', 'Trait']);

/** The declaration head (`signature`) marks the member abstract before its name. */
export function isAbstractSignature(name: string, signature: string | null | undefined): boolean {
  if (!signature) return false;
  const at = signature.indexOf(name);
  const head = at < 0 ? signature : signature.slice(0, at);
  return /\babstract\b/.test(head) || /@(?:abc\.)?abstractmethod\b/.test(head);
}
