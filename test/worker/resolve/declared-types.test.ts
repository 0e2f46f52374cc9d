import { describe, expect, it } from 'vitest';
import { createResolver } from '../../../src/graph/resolve';
import { CONFIDENCE, RECEIVER_NAME_CONFIDENCE } from '../../../src/graph/resolve/engine';
import type { GraphEdge } from '../../../src/graph/types';
import { extract } from './support';

async function resolveFiles(name: string, files: Record<string, string>): Promise<GraphEdge[]> {
  const { refs, symbols, layout } = await extract({ name, files: new Map(Object.entries(files)), expected: [] });
  return createResolver(layout).resolve(refs, symbols).filter((e) => e.kind === 'CALLS');
}

// The first extraction of a language loads its grammar: allow time.
const SLOW = 120_000;

const edge = (edges: readonly GraphEdge[], name: string) => edges.filter((e) => e.name === name).map((e) => [e.dstId, e.provenance, e.confidence]);

describe('receivers whose declaration states a type (Java, Go)', () => {
  const java = {
    'src/com/shop/Queue.java': `package com.shop;
public class Queue {
    public void add(String s) {}
}
`,
    'src/com/shop/Cache.java': `package com.shop;
public class Cache {
    public void add(String s) {}
    public Queue queue() { return new Queue(); }
}
`,
    'src/com/shop/Worker.java': `package com.shop;
public class Worker {
    private final Cache cache = new Cache();
    public Worker(int size) {}
    void run(Queue q) {
        q.add("a");
        cache.add("b");
        cache.queue().add("c");
        Queue pending = cache.queue();
        pending.add("d");
    }
}
`,
    'src/com/shop/Pool.java': `package com.shop;
public class Pool {
    public Pool() {}
    public Pool(int n) {}
    Worker start() { new Pool(); return new Worker(2); }
}
`,
  };

  it('links a Java parameter, a field and a method result to the member of their declared type', async () => {
    const edges = await resolveFiles('declared-java', java);
    expect(edge(edges, 'q.add')).toEqual([['src/com/shop/Queue.java::Queue.add#Method', 'receiver', CONFIDENCE.receiver]]);
    expect(edge(edges, 'cache.add')).toEqual([['src/com/shop/Cache.java::Cache.add#Method', 'receiver', CONFIDENCE.receiver]]);
    expect(edge(edges, 'cache.queue().add')).toEqual([['src/com/shop/Queue.java::Queue.add#Method', 'receiver', CONFIDENCE.receiver]]);
  }, SLOW);

  it('picks for a local variable the one same-named method whose type the variable is named after', async () => {
    const edges = await resolveFiles('declared-java', java);
    // `pending` names no type: a guess between the two `add` methods, under the default view.
    expect(edge(edges, 'pending.add').map(([, provenance]) => provenance)).toEqual(['ambiguous', 'ambiguous']);
    const named = await resolveFiles('declared-java-named', { ...java, 'src/com/shop/Worker.java': java['src/com/shop/Worker.java'].replace(/pending/g, 'queue') });
    expect(edge(named, 'queue.add')).toEqual([['src/com/shop/Queue.java::Queue.add#Method', 'receiver', RECEIVER_NAME_CONFIDENCE]]);
  }, SLOW);

  it('links new Foo() to Foo and to its constructor only when Foo has exactly one', async () => {
    const edges = await resolveFiles('declared-java', java);
    const news = edges.filter((e) => e.srcId === 'src/com/shop/Pool.java::Pool.start#Method' && !e.name.includes('.')).map((e) => e.dstId);
    expect(news.sort()).toEqual(['src/com/shop/Pool.java::Pool#Class', 'src/com/shop/Worker.java::Worker#Class', 'src/com/shop/Worker.java::Worker.Worker#Method']);
  }, SLOW);

  it('links a Go parameter through its pointer type and a struct field to their methods', async () => {
    const edges = await resolveFiles('declared-go', {
      'go.mod': 'module example.com/app\n',
      'lex/lexer.go': `package lex

type Lexer struct{ out *Sink }

func (l *Lexer) push(s string) {}

func start(lx *Lexer) {
	lx.push("a")
	lx.out.emit("b")
}
`,
      'lex/sink.go': `package lex

type Sink struct{}

func (s *Sink) emit(x string) {}
`,
    });
    expect(edge(edges, 'lx.push')).toEqual([['lex/lexer.go::Lexer.push#Method', 'receiver', CONFIDENCE.same_file]]);
    expect(edge(edges, 'lx.out.emit')).toEqual([['lex/sink.go::Sink.emit#Method', 'receiver', CONFIDENCE.receiver]]);
  }, SLOW);
});
