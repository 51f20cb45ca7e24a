// Whether a loopback port is free now (nothing listens on it): a listener bound and closed at once.
import { createServer } from "node:net";

export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
