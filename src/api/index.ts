// Ponder requires an API entry; the platform's API is the host (host/), so this serves nothing more.
import { Hono } from "hono";

const app = new Hono();
export default app;
