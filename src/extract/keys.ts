import type { SymbolKind } from './types';

/**
 * Hands out symbol keys `${qualified_name}#${kind}`; a repeat (overload,
 * redefinition, repeated heading) gets `~2`, `~3`… Call in source order.
 */
export class KeyAllocator {
  private readonly seen = new Map<string, number>();

  next(qualifiedName: string, kind: SymbolKind): string {
    const base = `${qualifiedName}#${kind}`;
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    return count === 1 ? base : `${base}~${count}`;
  }
}
