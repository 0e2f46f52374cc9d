// `node --import ./scripts/conformance/node20.mjs …/conformance/dist/index.js`: lets the
// conformance CLI (built for Node 22) start on Node 20.
import { register } from 'node:module';

register('./node20-hooks.mjs', import.meta.url);
