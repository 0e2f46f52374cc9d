/**
 * Tolerant JSON for config files (tsconfig.json, package.json): `//` and `/* *\/`
 * comments and trailing commas are accepted, as TypeScript itself does
 * (jsonc-parser, the scanner VS Code uses). Returns null instead of throwing
 * on anything it still cannot read.
 */
import { parse, type ParseError } from 'jsonc-parser';

export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length > 0 || value === undefined ? null : value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
