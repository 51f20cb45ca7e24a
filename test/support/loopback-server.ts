// A loopback HTTP server for tests of the platform's HTTP clients: `answer` gets each request with its whole body.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

export async function loopbackServer(
  answer: (request: IncomingMessage, body: string, response: ServerResponse) => unknown,
): Promise<LoopbackServer> {
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    await answer(request, body, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => {
      server.closeAllConnections(); // a request left unanswered on purpose must not hold the close
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
