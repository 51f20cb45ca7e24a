import { describe, expect, it } from "vitest";
import { composer as db } from "../collections/one-statement.ts";
import { writesWatchedTable } from "./local-platform-changes.ts";

// Query shapes only, never run: tables named as the host's queries name them, before or after camelCase mapping.
describe("writesWatchedTable", () => {
  it("sees inserts, updates and deletes of the NOTIFYing tables, by either spelling and under an alias", () => {
    expect(writesWatchedTable(db.updateTable("apiKeys").set({ revokedAt: null }).toOperationNode())).toBe(true);
    expect(writesWatchedTable(db.deleteFrom("memberships as m").where("m.userId", "=", "u").toOperationNode())).toBe(
      true,
    );
    expect(writesWatchedTable(db.insertInto("organization_chains").values({ chainId: 1 }).toOperationNode())).toBe(
      true,
    );
    expect(writesWatchedTable(db.updateTable("wallets").set({ name: "x" }).toOperationNode())).toBe(true);
  });

  it("ignores reads, other tables, and a key's last use (which notifies no one)", () => {
    expect(writesWatchedTable(db.selectFrom("apiKeys").selectAll().toOperationNode())).toBe(false);
    expect(writesWatchedTable(db.insertInto("transactionRequests").values({ id: "1" }).toOperationNode())).toBe(false);
    expect(writesWatchedTable(db.updateTable("apiKeys").set({ lastUsedAt: new Date() }).toOperationNode())).toBe(false);
  });
});
