// The just-bash side of bench/compare.sh: loads the tree that `ghbench
// tree` wrote into just-bash's in-memory filesystem (untimed), then runs
// one line per request. Requests are JSON lines {line, cwd} on stdin;
// answers are JSON lines {ms, cpu_ms, stdout, stderr, exit} on stdout, so ghbench
// can interleave its runs with gatehouse's and GNU's.
//
//   node justbash.mjs PATH/TO/just-bash/dist/bundle/index.js TREE_ROOT
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const [modulePath, root] = process.argv.slice(2);
const { Bash } = await import(pathToFileURL(modulePath).href);

const files = {};
function load(dir, virtual) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const host = join(dir, entry.name);
    const inside = virtual + "/" + entry.name;
    if (entry.isDirectory()) load(host, inside);
    else files[inside] = readFileSync(host, "utf8");
  }
}
for (const part of ["tree", "logs", "data"]) load(join(root, part), "/" + part);

// The defaults stop a 100k-file line long before it ends (30 s wall time,
// 20,000 commands); the comparison wants the time it takes, not a refusal.
const bash = new Bash({
  files,
  cwd: "/data",
  executionLimits: {
    maxExecutionTimeMs: 3_600_000,
    maxCommandCount: 100_000_000,
    maxOutputSize: 1024 * 1024 * 1024,
    maxFileSystemBytes: 2 * 1024 * 1024 * 1024,
  },
});
process.stdout.write(JSON.stringify({ ready: true, files: Object.keys(files).length }) + "\n");

const input = createInterface({ input: process.stdin });
for await (const text of input) {
  const req = JSON.parse(text);
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const r = await bash.exec(req.line, { cwd: req.cwd });
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const cpu_ms = (cpu.user + cpu.system) / 1000;
  process.stdout.write(JSON.stringify({ ms, cpu_ms, stdout: r.stdout, stderr: r.stderr, exit: r.exitCode }) + "\n");
}
