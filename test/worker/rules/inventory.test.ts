import { describe, expect, it } from 'vitest';
import { findTool } from '../../../src/tools/registry';
import { inputJsonSchema } from '../../../src/tools/describe';
import { rest } from '../helpers';
import type { Rule } from './rule';

// Every `*.rules.ts` file in this folder contributes rules (rule → tool → parameter).
const modules = import.meta.glob<{ RULES: Rule[] }>('./*.rules.ts', { eager: true });
const RULES = Object.values(modules).flatMap((m) => m.RULES);

function describedText(rule: Rule): string {
  const tool = findTool(rule.tool);
  if (!tool) throw new Error(`rule names unknown tool ${rule.tool}`);
  if (rule.param === '*') return tool.description;
  const schema = inputJsonSchema(tool) as { properties?: Record<string, { description?: string }> };
  const prop = schema.properties?.[rule.param];
  if (!prop) throw new Error(`${rule.tool} has no parameter ${rule.param}`);
  return prop.description ?? '';
}

describe('rule inventory', () => {
  it('holds at least one rule per inventory file', () => {
    expect(RULES.length).toBeGreaterThan(0);
  });

  for (const rule of RULES) {
    const label = `${rule.tool}.${rule.param}: "${rule.phrase}"`;
    it(`states ${label} in the provider-visible description`, () => {
      expect(describedText(rule).toLowerCase()).toContain(rule.phrase.toLowerCase());
    });
    it(`enforces ${label} at runtime`, async () => {
      if (rule.project) {
        const files = Object.entries(rule.project.files).map(([path, content]) => ({ path, content }));
        const pushed = await rest('index', { project: rule.project.name, files });
        expect(pushed.status).toBe(200);
      }
      const { status, body } = await rest(rule.tool, rule.args);
      if ('error' in rule.expect) {
        expect(status).toBeGreaterThanOrEqual(400);
        expect(body.error.code).toBe(rule.expect.error);
        expect(body.error.suggestion).toBeTruthy();
      } else if ('warning' in rule.expect) {
        expect(status).toBe(200);
        expect(body._meta.warnings_v2.map((w: { code: string }) => w.code)).toContain(rule.expect.warning);
      } else {
        expect(status).toBe(200);
      }
    });
  }
});
