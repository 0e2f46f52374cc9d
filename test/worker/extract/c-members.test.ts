import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';

describe('C struct members', () => {
  it('names function-pointer members whatever pointer their function returns, and pointers to function pointers', async () => {
    const r = await extractFile(
      'lib/obstack.h',
      [
        'struct obstack {',
        '  void (*freefun) (void *, struct chunk *);',
        '  struct chunk *(*chunkfun) (void *, long);',
        '  char **(*names) (void);',
        '  int (**qual) (char **);',
        '};',
        '',
      ].join('\n'),
    );
    expect(r.symbols.map((s) => `${s.qualified_name}#${s.kind}@${s.start_line}`)).toEqual([
      'obstack#Struct@1',
      'obstack.freefun#Field@2',
      'obstack.chunkfun#Field@3',
      'obstack.names#Field@4',
      'obstack.qual#Field@5',
    ]);
  }, 60_000);
});
