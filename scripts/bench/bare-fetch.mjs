// The bare fetch process of scripts/bench/fleet-scale.ts: plain node, no svc-gitops code. It
// GETs the paths listed in the JSON file argv[2] from BENCH_URL, argv[3] at a time, reads every
// body and drops it; the floor a whole `plan` process is compared with.
import { readFileSync } from 'node:fs';

const paths = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const concurrency = Number(process.argv[3] ?? '8');
const headers = { authorization: process.env.BENCH_AUTH ?? '', accept: 'application/json' };
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < paths.length) {
      const path = paths[next++];
      const response = await fetch(process.env.BENCH_URL + path, { headers });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${body.slice(0, 200)}`);
    }
  }),
);
