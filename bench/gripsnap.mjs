// One `gripsnap serve` process (bench/gripsnap): one agent's socket
// connection to grip's host, taking JSON requests a line each.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

/** startGripsnap starts `gripsnap serve` from bin against the host of stateDir. */
export function startGripsnap(bin, stateDir) {
  const p = spawn(path.join(bin, 'gripsnap'), ['serve'], { env: { ...process.env, GRIP_STATE_DIR: stateDir }, stdio: ['pipe', 'pipe', 'inherit'] });
  const rl = readline.createInterface({ input: p.stdout, crlfDelay: Infinity });
  const waiting = [];
  rl.on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  const call = (req) => new Promise((resolve, reject) => {
    waiting.push((res) => (res.error ? reject(new Error(`gripsnap ${req.op}: ${res.error}`)) : resolve(res)));
    p.stdin.write(JSON.stringify(req) + '\n');
  });
  return { call, close: () => p.stdin.end(), proc: p };
}
