import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Relative asset paths so the server can mount the UI under any prefix.
export default defineConfig({
  base: './',
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
});
