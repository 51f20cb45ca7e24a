// Transaction requests: where a caller follows a chain write to its terminal state.
import { definePlugin } from "../../host/plugin.ts";
import { transactionRoutes } from "./routes.ts";

export default definePlugin({ id: "transactions", routes: transactionRoutes });
