import { PincherError } from '../errors';

export const MAX_PATH_BYTES = 1024;
const PROJECT_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Why a repository-relative path is refused, or null when it is acceptable:
 * `/`-separated, relative, no `.`/`..` or empty segment, no NUL, no
 * backslash, at most 1,024 UTF-8 bytes.
 */
export function pathProblem(path: unknown): string | null {
  if (typeof path !== 'string' || path.length === 0) return 'path must be a non-empty string';
  if (path.includes('\0')) return 'path contains a NUL byte';
  if (new TextEncoder().encode(path).length > MAX_PATH_BYTES) return `path is longer than ${MAX_PATH_BYTES} bytes`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'path is absolute; send it relative to the repository root';
  if (path.includes('\\')) return 'path contains a backslash; use / as the separator';
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return "path contains a '..' segment";
  if (segments.some((s) => s === '.' || s === '')) return "path contains an empty or '.' segment";
  return null;
}

/** Throws `invalid_project_name` unless the name is 1–100 of [A-Za-z0-9._-]. */
export function checkProjectName(name: string): string {
  if (!PROJECT_NAME.test(name)) {
    throw new PincherError('invalid_project_name', `'${name.slice(0, 120)}' is not a valid project name`, {
      suggestion: 'use 1–100 characters from A–Z, a–z, 0–9, dot, underscore and hyphen',
    });
  }
  return name;
}

const HEX64 = /^[0-9a-f]{64}$/;

export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value);
}

const utf8 = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lowercase hex SHA-256 of `bytes`, or of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string | Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', typeof text === 'string' ? utf8.encode(text) : text));
  let hex = '';
  for (const b of digest) hex += HEX[b];
  return hex;
}
