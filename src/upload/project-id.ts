/** Crockford's base32 alphabet (no I, L, O, U). */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Characters of a project id: 50 random bits. */
const LENGTH = 10;

/**
 * A new project's id: 10 random Crockford base32 characters. Every row of a
 * project's index repeats its id (files, symbols, edges, and each of their
 * indexes), so it is kept short: 16 bytes less per row and index entry than a
 * ULID. The projects table's primary key refuses the (about 2^-50) collision.
 */
export function newProjectId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(LENGTH));
  let id = '';
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}
