// Stand-in for deel-local-cli's tools/spawn.js (not in the seed), used only by deel_diff_test to
// run the seed's hooks.js under Node. It implements the ASSUMPTIONS the emulator documents
// (docs/hosts/deel-local-cli-1.17.md): all of stdout/stderr is kept; the promise resolves on
// 'close' (child exited and both pipes closed); at the timeout the process group gets SIGKILL and
// the result carries error "timed out after <ms> ms" (the timer runs until 'close'); a signal
// death is status null, no error.
import { spawn } from 'node:child_process';

export function 돌려보기(file, args, { timeout = 0, 넣을것 = '' } = {}) {
  return new Promise((resolve) => {
    const out = [];
    const err = [];
    let error = null;
    let timer = null;
    let child;
    try {
      child = spawn(file, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      resolve({ status: null, stdout: '', stderr: '', error: e });
      return;
    }
    child.on('error', (e) => {
      error = error ?? e;
      if (child.pid === undefined) resolve({ status: null, stdout: '', stderr: '', error });
    });
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.stdin.on('error', () => {});
    child.stdin.end(넣을것);
    if (timeout > 0) {
      timer = setTimeout(() => {
        error = new Error(`timed out after ${timeout} ms`);
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      }, timeout);
    }
    // The timeout covers the child's run and the wait for both pipes to close, as Node's own
    // execFile (its timer is cleared in the 'close' handler): a background child holding stdout
    // past the timeout makes the hook time out (the group's SIGKILL then ends it).
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({
        status: code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        error,
      });
    });
  });
}
