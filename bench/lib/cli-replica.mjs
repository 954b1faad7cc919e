// A `weft serve --workers N` replica for the ingest bench: the built CLI
// (packages/cli/dist/bin.js) in a child process, its CPU time read from
// /proc for the primary and every worker (Linux), so the bench can sum the
// server CPU of all of a replica's processes.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
/** USER_HZ: the unit of utime/stime in /proc/PID/stat (100 on Linux, whatever the kernel's HZ). */
const TICKS_PER_S = 100;

/**
 * Starts `weft serve --port 0 --storage STORAGE --workers WORKERS` and
 * resolves once it prints its banner (every worker listens).
 * @returns {Promise<{ url: string, cpuSeconds(): number, close(): Promise<void> }>}
 */
export async function startCliReplica(storage, workers) {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--storage', storage, '--workers', String(workers)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)[\s\S]*Press Ctrl\+C/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code, signal) => reject(new Error(`weft serve exited (${signal ?? code}): ${out}`)));
  });
  return {
    url,
    // The replica's processes: the primary and its children (the workers).
    cpuSeconds: () => [child.pid, ...childrenOf(child.pid)].reduce((sum, pid) => sum + cpuOf(pid), 0),
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function childrenOf(pid) {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

/** User + system CPU seconds of one process so far (all its threads). */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ", field 3 (state) is index 0: utime is field 14, stime 15.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}
