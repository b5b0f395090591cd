// The bare fetch process of scripts/bench/fleet-scale.ts: plain node, no svc-gitops code. It
// GETs the paths listed in the JSON file argv[2] from BENCH_URL, argv[3] at a time (the
// abilities with BENCH_AUTH, REST routes with BENCH_REST_AUTH). With argv[4]
// `parse` every body is decoded with JSON.parse (what any client of a JSON interface must do) and
// dropped; with `drop` it is read as text and dropped. The floors a whole `plan` process is
// compared with.
import { readFileSync } from 'node:fs';

const paths = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const concurrency = Number(process.argv[3] ?? '8');
const parse = (process.argv[4] ?? 'parse') === 'parse';
const headers = { authorization: process.env.BENCH_AUTH ?? '', accept: 'application/json' };
// REST routes (`/wp-json/<namespace>/v2/…`) take the REST key instead.
const restHeaders = { authorization: process.env.BENCH_REST_AUTH ?? '', accept: 'application/json' };
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < paths.length) {
      const path = paths[next++];
      const rest = /^\/wp-json\/[^/]+\/v2\//.test(path);
      const response = await fetch(process.env.BENCH_URL + path, { headers: rest ? restHeaders : headers });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${body.slice(0, 200)}`);
      if (parse) JSON.parse(body);
    }
  }),
);
