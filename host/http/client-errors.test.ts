import { createServer } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientErrors, clientErrorFor, serverTimeouts } from "./client-errors.ts";

/** Sends raw bytes on a fresh connection; gives everything read until the server closes it. */
function exchange(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (d) => {
      received += d;
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.write(payload);
  });
}

function parse(raw: string) {
  const [head, body] = raw.split("\r\n\r\n");
  return { statusLine: head.split("\r\n")[0], head, body: JSON.parse(body) };
}

describe("Node's client errors", () => {
  const server = createServer(serverTimeouts(1), (req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  let port: number;
  beforeAll(async () => {
    answerClientErrors(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("maps parser and timeout errors to registered codes; a peer that left gets nothing", () => {
    const code = (c: string) => clientErrorFor(Object.assign(new Error(c), { code: c }))?.code;
    expect(code("HPE_HEADER_OVERFLOW")).toBe("REQUEST_HEADER_FIELDS_TOO_LARGE");
    expect(code("ERR_HTTP_REQUEST_TIMEOUT")).toBe("REQUEST_TIMEOUT");
    expect(code("HPE_INVALID_METHOD")).toBe("BAD_REQUEST");
    expect(code("ECONNRESET")).toBeUndefined();
  });

  it("answers a head over 16 KiB with 431 in Form A, X-Request-Id and Connection: close", async () => {
    const out = parse(await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`));
    expect(out.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(out.head).toMatch(/^connection: close$/im);
    const requestId = out.head.match(/^x-request-id: (.+)$/im)?.[1];
    expect(out.body).toMatchObject({
      code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
      status: 431,
      data: { id: "SVC-0021", category: "client", requestId },
    });
  });

  it("answers a malformed request line with 400 BAD_REQUEST", async () => {
    const out = parse(await exchange(port, "GARBAGE\r\n\r\n"));
    expect(out.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(out.body).toMatchObject({ code: "BAD_REQUEST", status: 400, data: { id: "SVC-0001" } });
  });

  it("answers a body shorter than its Content-Length with 408 once the request timeout passes", async () => {
    const started = Date.now();
    const out = parse(await exchange(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nshort"));
    expect(out.statusLine).toBe("HTTP/1.1 408 Request Timeout");
    expect(out.body).toMatchObject({ code: "REQUEST_TIMEOUT", status: 408, data: { id: "SVC-0020" } });
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
