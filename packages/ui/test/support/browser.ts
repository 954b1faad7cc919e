import { existsSync, mkdirSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Debian's chromium, headless, with everything that would reach the network
 * turned off; `args` adds switches (e.g. `--host-resolver-rules=MAP name 127.0.0.1`).
 */
export function launchBrowser({ args = [] }: { args?: string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

/** The built UI the server serves (`npm run build`, or `npx vite build` in packages/ui). */
export const UI_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

/** {@link UI_DIR} for the server's `uiDir`, or a plain error saying how to build it when it is missing. */
export function builtUiDir(): string {
  if (!existsSync(join(UI_DIR, 'index.html'))) {
    throw new Error(
      `No built UI at ${UI_DIR}: run \`npm run build\` (or \`npx vite build\` in packages/ui) first.`,
    );
  }
  return UI_DIR;
}

/** Screenshots are test artifacts (gitignored), not committed. */
export function artifactsDir(): string {
  const dir = fileURLToPath(new URL('../../../../test-artifacts/ui/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Where the pictures of docs/ui.md live. */
const DOCS_DIR = fileURLToPath(new URL('../../../../docs/ui/', import.meta.url));

/** A screenshot for docs/ui.md: written as a test artifact, then copied next to the docs. */
export async function docsShot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const path = join(artifactsDir(), `${name}.png`);
  await page.screenshot({ path, ...options });
  await copyFile(path, join(DOCS_DIR, `${name}.png`));
}
