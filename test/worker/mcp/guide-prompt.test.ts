import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { getPrompt, PROMPTS } from '../../../src/mcp/guide-prompt';
import type { Env } from '../../../src/env';
import { PincherError } from '../../../src/errors';
import { REGISTRY } from '../../../src/tools/registry';
import type { CallContext } from '../../../src/tools/run';
import { rpc, TRANSPORTS, type Json } from '../contract/support';
import { ID, seedProject } from '../tools/composite-fixture';

const P = 'comp-prompt';

const call = (defaultProject?: string): CallContext => ({
  env: env as unknown as Env,
  requestId: 'prompt-test',
  startedAt: Date.now(),
  scope: 'read',
  surface: 'mcp',
  ...(defaultProject ? { defaultProject } : {}),
  waitUntil: () => undefined,
  registry: REGISTRY,
});

async function refused(p: Promise<unknown>): Promise<PincherError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(PincherError);
    return err as PincherError;
  }
  throw new Error('the prompt was not refused');
}

beforeAll(async () => {
  await seedProject(P);
});

describe('guide prompt: the module', () => {
  it('describes one prompt, guide, with a required task and an optional project', () => {
    expect(PROMPTS.map((p) => [p.name, p.arguments.map((a) => [a.name, a.required])])).toEqual([['guide', [['task', true], ['project', false]]]]);
  });

  it('renders the guide plan as one user message with real ids, and carries the envelope', async () => {
    const prompt = await getPrompt('guide', { task: 'who calls listen', project: P }, call());
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0].role).toBe('user');
    const text = prompt.messages[0].content.text;
    expect(text).toContain('Intent: callers');
    expect(text).toContain(`1. trace {"project":"${P}","id":"${ID.listen}","direction":"inbound"}`);
    expect(prompt._meta.complexity_tier).toBe('lite');
    expect(prompt._meta.project_name).toBe(P);
  });

  it('uses the pinned project when the arguments name none', async () => {
    const prompt = await getPrompt('guide', { task: 'who calls listen' }, call(P));
    expect(prompt.messages[0].content.text).toContain(`Project: ${P}`);
    expect(prompt.messages[0].content.text).toContain(ID.listen);
  });

  it('notes the empty reason when the project is unknown', async () => {
    const prompt = await getPrompt('guide', { task: 'who calls listen', project: 'comp-prompt-none' }, call());
    expect(prompt.messages[0].content.text).toContain('Note (no_project_indexed)');
    expect(prompt.messages[0].content.text).toContain('1. list {}');
  });

  it('refuses an unknown prompt, a missing task and a task the tool refuses, with suggestions', async () => {
    const unknown = await refused(getPrompt('nope', { task: 'x' }, call()));
    expect(unknown.code).toBe('not_found');
    expect(unknown.suggestion).toContain('guide');
    const missing = await refused(getPrompt('guide', {}, call()));
    expect(missing.code).toBe('invalid_params');
    expect(missing.suggestion).toBeTruthy();
    const blank = await refused(getPrompt('guide', { task: '?!' }, call()));
    expect(blank.code).toBe('invalid_params');
  });
});

/** These run through POST /mcp: they hold once src/mcp/server.ts declares the prompts capability and routes prompts/list and prompts/get to this module. */
describe('guide prompt over MCP', () => {
  for (const t of TRANSPORTS) {
    it(`is listed by prompts/list (${t})`, async () => {
      const reply = await rpc(t, 'prompts/list', {});
      expect(reply.body.result?.prompts?.map((p: Json) => p.name), JSON.stringify(reply.body).slice(0, 300)).toEqual(['guide']);
    });

    it(`answers prompts/get with the plan (${t})`, async () => {
      const reply = await rpc(t, 'prompts/get', { name: 'guide', arguments: { task: 'who calls listen', project: P } });
      const message = reply.body.result?.messages?.[0];
      expect(message?.role, JSON.stringify(reply.body).slice(0, 300)).toBe('user');
      expect(message.content.text).toContain(ID.listen);
    });

    it(`answers an unknown prompt with a JSON-RPC invalid-params error (${t})`, async () => {
      const reply = await rpc(t, 'prompts/get', { name: 'nope', arguments: {} });
      expect(reply.body.error?.code, JSON.stringify(reply.body).slice(0, 300)).toBe(-32602);
    });

    it(`uses the ?project= pin of the URL (${t})`, async () => {
      const reply = await rpc(t, 'prompts/get', { name: 'guide', arguments: { task: 'who calls listen' } }, { query: `?project=${P}` });
      expect(reply.body.result?.messages?.[0]?.content?.text, JSON.stringify(reply.body).slice(0, 300)).toContain(ID.listen);
    });
  }

  it('declares the prompts capability on initialize', async () => {
    const init = await rpc('2025', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.body.result.capabilities.prompts).toBeDefined();
  });
});
