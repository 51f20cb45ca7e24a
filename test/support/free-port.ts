// A free loopback port, in a module of its own: test/support/boot-check.ts runs in a fresh clone and needs it without
// importing the platform (stack.ts imports it all: ~6 s more before its `npm start`).
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
