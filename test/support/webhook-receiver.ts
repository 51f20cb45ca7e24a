// A local HTTP receiver for webhook deliveries (node:http on 127.0.0.1): records every request per path and answers
// as the test's behaviour for that path says (a status, after an optional wait).
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What a path answers: a status (and headers), possibly after awaiting something. */
export type Behaviour = (request: Received, count: number) => Promise<Answer> | Answer;
export interface Answer {
  status: number;
  headers?: Record<string, string>;
}

export interface Receiver {
  url(path: string): string;
  on(path: string, behaviour: Behaviour): void;
  received(path: string): Received[];
  close(): Promise<void>;
}

const answerNoContent: Behaviour = () => ({ status: 204 });

export async function webhookReceiver(): Promise<Receiver> {
  const log: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const request = {
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      log.push(request);
      const count = log.filter((r) => r.path === request.path).length;
      const answer = await (behaviours.get(request.path) ?? answerNoContent)(request, count);
      if (!res.destroyed) res.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    received: (path) => log.filter((r) => r.path === path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
