// Node's HTTP layer refuses some requests before the app runs (a head over 16 KiB, a malformed request line, a body
// still missing when the request timeout passes). By default it answers those with an empty body, or none: here they
// get the spec's Form A envelope, with X-Request-Id and `Connection: close`, like every other error.
import { randomUUID } from "node:crypto";
import { type Server, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../errors/api-error.ts";
import { renderError } from "../errors/render.ts";

/** How long a refused connection may stay half-open for the client to read the answer. */
const LINGER_MS = 1000;

/** The API error for a Node parser or timeout error, or undefined when nothing can be answered (the peer left). */
export function clientErrorFor(error: NodeJS.ErrnoException): ApiError | undefined {
  switch (error.code) {
    case "ECONNRESET":
    case "EPIPE":
      return undefined;
    case "HPE_HEADER_OVERFLOW":
      return new ApiError("REQUEST_HEADER_FIELDS_TOO_LARGE");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError("REQUEST_TIMEOUT");
    default:
      return new ApiError("BAD_REQUEST", {
        message: `The request is not valid HTTP/1.1 (${error.code ?? "parse error"})`,
      });
  }
}

/** A whole raw HTTP/1.1 response carrying the error in Form A (no route is known: the request never parsed). */
export function rawErrorResponse(error: ApiError, requestId: string = randomUUID()): string {
  const body = JSON.stringify(renderError(error, "A", requestId));
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** Answers Node's client errors in the envelope (call once on the HTTP server). */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response the app already began cannot be replaced: only the connection can go.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    const answer = socket.writable && !inFlight?.headersSent ? clientErrorFor(error) : undefined;
    if (!answer) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(answer));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/** Node server settings: a request (head and body) must arrive within the timeout, checked every second. */
export function serverTimeouts(requestTimeoutSeconds: number) {
  const ms = requestTimeoutSeconds * 1000;
  return { requestTimeout: ms, headersTimeout: ms, connectionsCheckingInterval: Math.min(1000, ms) };
}
