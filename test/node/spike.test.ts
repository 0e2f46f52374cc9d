import { it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
it('node side', () => { expect(readFileSync('package.json','utf8')).toContain('pincher-edge'); });
