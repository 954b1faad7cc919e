#!/usr/bin/env node
// The `weft` binary. Committed (not built) so npm can link it at install
// time, before `npm run build` has produced dist/: npm skips bins whose file
// does not exist yet.
try {
  await import('../dist/bin.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write('weft: error: @weft/cli is not built yet; run `npm run build` first.\n');
    process.exitCode = 1;
  } else {
    throw error;
  }
}
