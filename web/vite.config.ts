import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const engineSrc = fileURLToPath(new URL('../engine/src/', import.meta.url));
/** The engine is plain functions: modules a web build does not call are dropped whole. */
export const engineTreeshake = { moduleSideEffects: (id: string) => !id.startsWith(engineSrc) };

/**
 * Writes .br and .gz beside every text asset of the build, so a static server that serves
 * precompressed files (@fastify/static `preCompressed: true`) sends them without work.
 * The mobile app (web/mobile/vite.config.ts) uses it on its own output, web/dist/m.
 */
export function precompress(outDir = join(webRoot, 'dist')): Plugin {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
  return {
    name: 'tm-precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir).filter((f) => /\.(js|css|html|svg|json|wasm|webmanifest)$/.test(f) && !f.includes('.vite'))) {
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * The web app: sources in web/src, output in web/dist (served by the server, which falls
 * back to index.html for client routes). The manifest lets scripts/bench/web.ts measure
 * what the sign-in route loads.
 */
export default defineConfig({
  root: webRoot,
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      treeshake: engineTreeshake,
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': process.env.API_TARGET ?? 'http://127.0.0.1:3000' },
  },
});
