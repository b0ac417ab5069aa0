// A short load test on loopback: CLIENTS clients probing positions for SECONDS seconds, with no errors.
// Prints the latency percentiles as JSON (docs/benchmarks.md records them).
import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";
import { startServer } from "./harness.js";

const CLIENTS = Number(process.env.LOAD_CLIENTS || 50);
const SECONDS = Number(process.env.LOAD_SECONDS || 10);
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode, body }));
      })
      .on("error", reject);
  });
}

/** Positions reached by random games, as probe URLs: what players' pages ask for. */
async function positions(base) {
  const urls = [];
  for (let game = 0; game < 40; game++) {
    let position = null;
    for (let ply = 0; ply < 12; ply++) {
      const query = new URLSearchParams({ size: "4" });
      if (position) query.set("position", position);
      const url = `${base}/api/dodgem/probe?${query}`;
      urls.push(url);
      const probe = JSON.parse((await get(url)).body);
      if (probe.over) break;
      position = probe.moves[Math.floor(Math.random() * probe.moves.length)].position;
    }
    const lines = [];
    for (let ply = 0; ply < 14; ply++) {
      const url = `${base}/api/dots-and-boxes/probe?rows=3&cols=3&moves=${lines.join(",")}`;
      urls.push(url);
      const probe = JSON.parse((await get(url)).body);
      if (probe.over) break;
      lines.push(probe.moves[Math.floor(Math.random() * probe.moves.length)].move);
    }
  }
  return urls;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

test(`${CLIENTS} clients probing for ${SECONDS} s get no errors`, async () => {
  const server = await startServer();
  try {
    const urls = await positions(server.url);
    const latencies = [];
    const failures = [];
    const end = Date.now() + SECONDS * 1000;
    const client = async (id) => {
      let i = id;
      while (Date.now() < end) {
        const url = urls[i++ % urls.length];
        const began = process.hrtime.bigint();
        try {
          const { status } = await get(url);
          if (status !== 200) failures.push(`${status} ${url}`);
        } catch (error) {
          failures.push(`${error.message} ${url}`);
        }
        latencies.push(Number(process.hrtime.bigint() - began) / 1e6);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(id * 7)));
    latencies.sort((a, b) => a - b);
    const report = {
      clients: CLIENTS,
      seconds: SECONDS,
      requests: latencies.length,
      per_second: Math.round(latencies.length / SECONDS),
      p50_ms: Number(percentile(latencies, 50).toFixed(2)),
      p99_ms: Number(percentile(latencies, 99).toFixed(2)),
      max_ms: Number(latencies[latencies.length - 1].toFixed(2)),
      errors: failures.length,
    };
    console.log(JSON.stringify(report));
    assert.deepEqual(failures.slice(0, 5), []);
    assert.ok(latencies.length > CLIENTS, "the clients got answers");
  } finally {
    agent.destroy();
    await server.stop();
  }
});
