// Ponder requires an API entry; the benchmark reads the database and /status only.
import { Hono } from "hono";

export default new Hono();
