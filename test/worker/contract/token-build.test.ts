import { describe, expect, it } from 'vitest';
import { computeCapabilities } from '../../../src/envelope/capabilities';
import { countTokens, EXACT_TOKENS_BUILT, prepareTokens, tokenAccountingProblem, tokenMode } from '../../../src/envelope/tokens';
import { env, send } from './support';

describe('exact token accounting and the build that carries it', () => {
  it('counts exactly only when configured and built with the cl100k_base ranks', () => {
    expect(tokenMode('exact', true)).toBe('exact');
    expect(tokenMode('exact', false)).toBe('heuristic');
    expect(tokenMode('heuristic', true)).toBe('heuristic');
    expect(tokenMode(undefined, true)).toBe('heuristic');
  });

  it('names the build to deploy when exact accounting is configured on the default build', () => {
    expect(tokenAccountingProblem('exact', false)).toMatch(/npm run deploy:exact/);
    expect(tokenAccountingProblem('exact', true)).toBeNull();
    expect(tokenAccountingProblem(undefined, false)).toBeNull();
  });

  it('runs this suite on the build with the ranks, so exact figures are the BPE count', async () => {
    expect(EXACT_TOKENS_BUILT).toBe(true);
    await prepareTokens('exact');
    // cl100k_base: "hello world" is two tokens; chars/4 would say three.
    expect(countTokens('hello world', 'exact')).toBe(2);
    expect(countTokens('hello world', 'heuristic')).toBe(3);
  });

  it('advertises token_accounting_exact only where exact counting happens', () => {
    expect(computeCapabilities({ ...(env as object), PINCHER_TOKEN_ACCOUNTING: 'exact' } as never)).toContain('token_accounting_exact');
    expect(computeCapabilities({ ...(env as object), PINCHER_TOKEN_ACCOUNTING: 'heuristic' } as never)).not.toContain('token_accounting_exact');
  });

  it('GET /v1/ready carries no configuration warning when the accounting works as configured', async () => {
    const { status, body } = await send('/v1/ready');
    expect(status).toBe(200);
    expect(body.warnings).toEqual([]);
  });
});
