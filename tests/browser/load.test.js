// A short load test on loopback: CLIENTS clients probing positions and analysing Snakes boards for SECONDS
// seconds, with no errors, while SLOW clients (none unless $LOAD_SLOW says) hold connections open by sending
// their headers a byte at a time. One request in twenty asks for a table not built yet, which the server builds
// at once or in the background (answering 202 meanwhile). Prints the latency percentiles as JSON, those of the
// requests that build apart (docs/notes/benchmarks.md records them).
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { test } from "node:test";
import { startServer } from "./harness.js";

const CLIENTS = Number(process.env.LOAD_CLIENTS || 50);
const SECONDS = Number(process.env.LOAD_SECONDS || 10);
const SLOW = Number(process.env.LOAD_SLOW || 0);
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
    // One request in ten or so analyses a Snakes board, as the Snakes page does.
    const board = ["milton-bradley", "milton-bradley-47", "example-30"][game % 3];
    urls.push(`${base}/api/snakes/analyse?board=${board}&overshoot=${["stay", "bounce", "pass"][game % 3]}`);
  }
  return urls;
}

/**
 * Opens `count` connections that send a request's headers a byte a second and never finish. Returns how to
 * count those the server has closed, and how to close the rest.
 */
function slowClients(base, count) {
  const { hostname, port } = new URL(base);
  const sockets = [];
  let closedByServer = 0;
  let stopped = false;
  for (let i = 0; i < count; i++) {
    const socket = net.connect(Number(port), hostname, () => socket.write("GET /api/games HTTP/1.1\r\nHost: x\r\n"));
    socket.on("error", () => {});
    const drip = setInterval(() => socket.writable && socket.write("x"), 1000);
    // Closed by the server, with a FIN or (when it refused the connection unread) a reset.
    socket.on("close", () => (clearInterval(drip), stopped || closedByServer++));
    sockets.push({ socket, drip });
  }
  return {
    closedByServer: () => closedByServer,
    stop: () => {
      stopped = true;
      sockets.forEach(({ socket, drip }) => (clearInterval(drip), socket.destroy()));
    },
  };
}

/** Requests for tables not built yet: small ones built while the request waits, and one built in the background. */
function builds(base) {
  const urls = [];
  for (const variant of ["american", "swedish", "icelandic"]) {
    for (const [rows, cols] of [[1, 3], [2, 2], [1, 5], [2, 3], [3, 3]]) {
      urls.push(`${base}/api/dots-and-boxes/probe?rows=${rows}&cols=${cols}&variant=${variant}`);
    }
  }
  for (const size of [2, 3, 4]) urls.push(`${base}/api/dodgem/probe?size=${size}&misere=true`);
  urls.push(`${base}/api/dodgem/probe?size=5&misere=true`);
  return urls;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

test(`${CLIENTS} clients probing for ${SECONDS} s get no errors`, async () => {
  const server = await startServer();
  let slow = { closedByServer: () => 0, stop: () => {} };
  try {
    const urls = await positions(server.url);
    const building = builds(server.url);
    slow = slowClients(server.url, SLOW);
    const latencies = [];
    const buildLatencies = [];
    const failures = [];
    const end = Date.now() + SECONDS * 1000;
    let asked = 0;
    const client = async (id) => {
      let i = id;
      while (Date.now() < end) {
        const builds = asked++ % 20 === 19;
        const url = builds ? building[Math.floor(asked / 20) % building.length] : urls[i++ % urls.length];
        const began = process.hrtime.bigint();
        try {
          const { status } = await get(url);
          // A table built in the background answers 202 until it is done.
          if (status !== 200 && !(builds && status === 202)) failures.push(`${status} ${url}`);
        } catch (error) {
          failures.push(`${error.message} ${url}`);
        }
        (builds ? buildLatencies : latencies).push(Number(process.hrtime.bigint() - began) / 1e6);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(id * 7)));
    latencies.sort((a, b) => a - b);
    buildLatencies.sort((a, b) => a - b);
    const report = {
      clients: CLIENTS,
      slow_clients: SLOW,
      slow_closed_by_server: slow.closedByServer(),
      seconds: SECONDS,
      requests: latencies.length,
      per_second: Math.round(latencies.length / SECONDS),
      p50_ms: Number(percentile(latencies, 50).toFixed(2)),
      p99_ms: Number(percentile(latencies, 99).toFixed(2)),
      max_ms: Number(latencies[latencies.length - 1].toFixed(2)),
      building_requests: buildLatencies.length,
      building_p50_ms: Number(percentile(buildLatencies, 50).toFixed(2)),
      building_p99_ms: Number(percentile(buildLatencies, 99).toFixed(2)),
      errors: failures.length,
    };
    console.log(JSON.stringify(report));
    assert.deepEqual(failures.slice(0, 5), []);
    assert.ok(latencies.length > CLIENTS, "the clients got answers");
    assert.ok(buildLatencies.length >= building.length, "every table not built yet was asked for");
  } finally {
    slow.stop();
    agent.destroy();
    await server.stop();
  }
});
