// A Kysely that compiles PostgreSQL and runs nothing: statements composed before a real executor runs them (a
// collection's one statement), and queries checked as SQL text in unit tests, without a database.
import {
  DummyDriver,
  Kysely,
  type KyselyPlugin,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from "kysely";

export function compilingOnly<DB>(plugins: KyselyPlugin[] = []): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins,
  });
}
