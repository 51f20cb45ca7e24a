// The participants of an organisation on one chain, as one SQL relation over the platform's tables (people and the
// organisation with their custody wallets) and the index (the system's tokens, trusted claim issuers and addons).
// Each row carries its address for every purpose and every wallet that makes an event the participant's.
// Host mechanics beside X-Participant (the acting participant): the participants plugin lists this relation, the
// activity feeds look participants up in it (find-participant.ts), and plugins never import each other.
import { type RawBuilder, sql } from "kysely";
import { ORGANIZATION_PRIMARY_PATH } from "../custody/custody.ts";
import { chainViewsSchema } from "../db/chain-views.ts";
import { indexedHex } from "../db/ledger-types.ts";

export const PARTICIPANT_KINDS = ["person", "organisation", "asset", "claim_issuer", "addon"] as const;
export type ParticipantKind = (typeof PARTICIPANT_KINDS)[number];

export interface ParticipantRow {
  id: string;
  kind: ParticipantKind;
  displayName: string;
  participantAddress: string | null;
  transferAddress: string | null;
  identityAddress: string | null;
  /** Lowercase addresses whose events are the participant's (its wallets, or its contract). */
  wallets: string[];
}

export interface ParticipantScope {
  /** The index's views schema (INDEX_VIEWS_SCHEMA): the relation joins the chain's views with the platform schema. */
  viewsSchema: string;
  chainId: number;
  organizationId: string;
  system: string;
}

/** A table of the index, by its view of the scope's chain. */
function view(scope: ParticipantScope, name: string) {
  return sql.table(`${chainViewsSchema(scope.viewsSchema, scope.chainId)}.${name}`);
}

const COLUMNS = "id, kind, display_name, participant_address, transfer_address, identity_address, wallets";

/** The relation; columns snake_case (the ledger's CamelCasePlugin maps them for kysely callers). */
export function participantsRelation(
  scope: ParticipantScope,
  kinds: readonly ParticipantKind[] = PARTICIPANT_KINDS,
): RawBuilder<ParticipantRow> {
  const { organizationId } = scope;
  const system = indexedHex(scope.system);
  const identity = view(scope, "identity");
  const walletIdentity = (wallet: RawBuilder<unknown>) =>
    sql`(select i.id from ${identity} i where i.system = ${system} and i.account = ${wallet} order by i.created_at limit 1)`;
  const branches: Record<ParticipantKind, () => RawBuilder<unknown>> = {
    person: () => sql`
      select p.id, 'person' as kind, p.display_name, p.wallet as participant_address, p.wallet as transfer_address,
        ${walletIdentity(sql`p.wallet`)} as identity_address, p.wallets
      from (
        select u.id, u.display_name,
          (select w.address from platform.wallets w where w.organization_id = ${organizationId} and w.user_id = u.id
            order by w.created_at, w.address limit 1) as wallet,
          coalesce((select array_agg(w.address order by w.address) from platform.wallets w
            where w.organization_id = ${organizationId} and w.user_id = u.id), '{}'::text[]) as wallets
        from platform.users u
        where u.id in (select m.user_id from platform.memberships m where m.organization_id = ${organizationId})
      ) p`,
    organisation: () => sql`
      select o.id, 'organisation' as kind, o.display_name, o.wallet, o.wallet, ${walletIdentity(sql`o.wallet`)},
        o.wallets
      from (
        select o.id, o.name as display_name,
          (select w.address from platform.wallets w where w.organization_id = o.id and w.user_id is null
            and w.derivation_path = ${ORGANIZATION_PRIMARY_PATH}) as wallet,
          coalesce((select array_agg(w.address order by w.address) from platform.wallets w
            where w.organization_id = o.id and w.user_id is null), '{}'::text[]) as wallets
        from platform.organizations o where o.id = ${organizationId}
      ) o`,
    asset: () => sql`
      select t.id, 'asset' as kind, t.name, t.id, t.id, ${walletIdentity(sql`t.id`)}, array[t.id::text]
      from ${view(scope, "token")} t where t.system = ${system}`,
    claim_issuer: () => sql`
      select ti.issuer, 'claim_issuer' as kind, coalesce(
          (select o.name || ' claim issuer' from platform.wallets w join platform.organizations o on o.id = w.organization_id
            where w.address = i.account and w.user_id is null and w.organization_id = ${organizationId} limit 1),
          'Claim issuer ' || ti.issuer),
        ti.issuer, i.account, ti.issuer, array_remove(array[ti.issuer::text, i.account::text], null)
      from ${view(scope, "trusted_issuer")} ti left join ${identity} i on i.id = ti.issuer
      where ti.system = ${system} and ti.active`,
    addon: () => sql`
      select a.id, 'addon' as kind, a.name, a.id, a.id, ${walletIdentity(sql`a.id`)}, array[a.id::text]
      from ${view(scope, "addon_factory")} a where a.system = ${system}`,
  };
  // Each branch names the relation's columns itself: the first branch of a union names them, whichever it is.
  const selected = PARTICIPANT_KINDS.filter((kind) => kinds.includes(kind)).map(
    (kind) => sql`select * from (${branches[kind]()}) as ${sql.raw(kind)}(${sql.raw(COLUMNS)})`,
  );
  return sql<ParticipantRow>`(${sql.join(selected, sql` union all `)})`;
}
