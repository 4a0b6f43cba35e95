import { afterAll, beforeAll, describe } from "vitest";
import { type PostgresCluster, postgresForTests, startPostgresCluster } from "./postgres-cluster.mjs";

/**
 * A `describe` whose tests share a private PostgreSQL server (`startPostgresCluster`), started
 * before them and removed after; skipped with the reason in its title when no server can be
 * had outside CI (`postgresForTests`). `body` gets the cluster through a function: it exists
 * once the tests run.
 */
export function describePostgres(
  title: string,
  options: { timeout?: number },
  body: (cluster: () => PostgresCluster) => void,
): void {
  const postgres = postgresForTests();
  describe.skipIf(!postgres.run)(
    `${title}${postgres.run ? "" : ` (skipped: ${postgres.reason})`}`,
    options,
    () => {
      let cluster: PostgresCluster | undefined;
      beforeAll(async () => {
        cluster = await startPostgresCluster();
      }, 120_000);
      afterAll(async () => {
        await cluster?.destroy();
      });
      body(() => {
        if (cluster === undefined) throw new Error("the PostgreSQL server did not start");
        return cluster;
      });
    },
  );
}
