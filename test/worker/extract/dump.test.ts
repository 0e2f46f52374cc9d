import { it } from 'vitest';
import { extractFile } from '../../../src/extract/index';

const sources = import.meta.glob(['../../fixtures/extract/*/*', '!**/expected.json'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

it('dumps', async () => {
  for (const [file, text] of Object.entries(sources)) {
    const lang = file.split('/').slice(-2)[0];
    const r = await extractFile(file.replace('../../fixtures/extract/', 'src/'), text);
    console.log('@@DUMP ' + JSON.stringify({ lang, ...r }));
  }
});
