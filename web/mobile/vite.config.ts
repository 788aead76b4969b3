import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { engineTreeshake, precompress } from '../vite.config.ts';

const mobileRoot = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/m', import.meta.url));

/** The green of the product's theme (web/index.html's theme-color). */
const THEME = '#10b981';

/**
 * The installable mobile app (issue 20): sources in web/mobile, output in web/dist/m, served
 * under /m/ by the server (server/src/routes/web.ts). Built after the desktop app, whose build
 * empties web/dist (`npm run build:web` runs both). vite-plugin-pwa writes the web manifest and
 * a Workbox service worker (sw.js, scope /m/) that precaches the app shell, the icons and the
 * barcode reader's wasm, so the app opens and scans without a connection.
 */
export default defineConfig({
  root: mobileRoot,
  base: '/m/',
  plugins: [
    react(),
    VitePWA({
      strategies: 'generateSW',
      // A new version waits for the user (a banner offers the reload): never mid-form.
      registerType: 'prompt',
      injectRegister: false,
      filename: 'sw.js',
      scope: '/m/',
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icon-192.png', 'icon-512.png', 'icon-maskable-512.png'],
      manifest: {
        id: '/m/',
        name: 'Traceability Mobile',
        short_name: 'Trace',
        description: 'IBC and bulk traceability in the field, online or offline.',
        lang: 'en',
        start_url: '/m/',
        scope: '/m/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: THEME,
        background_color: '#ffffff',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,wasm,webmanifest}'],
        // The zxing reader's wasm (about 1 MB) is precached so the camera reads codes offline.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        navigateFallback: '/m/index.html',
        navigateFallbackAllowlist: [/^\/m(\/|$)/],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
      },
    }),
    precompress(outDir),
  ],
  build: {
    outDir,
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    rollupOptions: { treeshake: engineTreeshake },
  },
  server: {
    port: 5174,
    proxy: { '/api': process.env.API_TARGET ?? 'http://127.0.0.1:3000' },
  },
});
