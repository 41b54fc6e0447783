import { gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

/** The budget for what the first visit downloads: the entry's JS, its static imports and their CSS. */
const INITIAL_LIMIT_BYTES = 200 * 1024;

/** Prints the gzip size of the initial JS + CSS and fails the build above the budget. */
function initialSize(): Plugin {
  return {
    name: 'initial-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byName = new Map(Object.entries(bundle));
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        const item = byName.get(fileName);
        if (item?.type !== 'chunk') return;
        for (const css of item.viteMetadata?.importedCss ?? []) initial.add(css);
        item.imports.forEach(visit);
      };
      chunks.filter((chunk) => chunk.isEntry).forEach((chunk) => visit(chunk.fileName));
      let total = 0;
      for (const fileName of initial) {
        const item = byName.get(fileName);
        if (!item) continue;
        total += gzipSync(item.type === 'chunk' ? item.code : item.source).length;
      }
      const kb = (total / 1024).toFixed(1);
      const line = `[web] carga inicial (JS + CSS, gzip): ${kb} KB de ${INITIAL_LIMIT_BYTES / 1024} KB (${initial.size} ficheiros)`;
      if (total > INITIAL_LIMIT_BYTES) this.error(line);
      console.log(line);
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [preact(), initialSize()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
