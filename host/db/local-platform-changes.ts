// A write this process makes to a row behind the short caches (the tables migration 0011 NOTIFYs for) drops this
// process's cached reads as soon as the write returns, not when its NOTIFY comes back: a key revoked here is refused
// by this host's very next request. Other processes still learn of it by NOTIFY (host/db/platform-changes.ts).
import type {
  ColumnNode,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import { noteLocalPlatformChange } from "./platform-changes.ts";

/** The NOTIFYing tables, compared without underscores or case (the query may name them before camelCase mapping). */
const WATCHED = new Set(["apikeys", "memberships", "organizations", "organizationchains", "users", "wallets"]);
/** Columns whose update notifies no one (migration 0013: a key's last use). */
const UNNOTIFIED_UPDATES = new Set(["lastusedat"]);

const plain = (name: string) => name.replaceAll("_", "").toLowerCase();

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === "AliasNode") return tableName((node as unknown as { node: OperationNode }).node);
  if (node.kind === "TableNode")
    return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  return undefined;
}

export function writesWatchedTable(node: RootOperationNode): boolean {
  const watched = (table: string | undefined) => table !== undefined && WATCHED.has(plain(table));
  switch (node.kind) {
    case "InsertQueryNode":
      return watched(tableName(node.into));
    case "DeleteQueryNode":
      return node.from.froms.some((from) => watched(tableName(from)));
    case "UpdateQueryNode": {
      if (!watched(tableName(node.table))) return false;
      const columns = (node.updates ?? []).map((update) =>
        update.column.kind === "ColumnNode" ? plain((update.column as ColumnNode).column.name) : "",
      );
      return columns.length === 0 || columns.some((column) => !UNNOTIFIED_UPDATES.has(column));
    }
    default:
      return false;
  }
}

export class LocalPlatformChangesPlugin implements KyselyPlugin {
  readonly #writes = new WeakSet<QueryId>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (writesWatchedTable(node)) this.#writes.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(queryId)) noteLocalPlatformChange();
    return result;
  }
}
