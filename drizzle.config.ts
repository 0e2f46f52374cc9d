import { defineConfig } from 'drizzle-kit';

// Offline generation only: `npm run db:generate` writes numbered SQL files into
// migrations/, which wrangler applies (`wrangler d1 migrations apply DB`).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations',
});
