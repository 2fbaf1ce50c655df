import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { agentMandates, agents } from '../../../drizzle/schema.js';
import type { Database } from '../../../platform/db.js';
import { boundedCall } from '../../../platform/timeout.js';

const STORE_TIMEOUT_MS = 5000;

export type AgentRow = typeof agents.$inferSelect;
export type MandateRow = typeof agentMandates.$inferSelect;

export interface AgentWithMandate {
  agent: AgentRow;
  mandate: MandateRow | null;
}

export type MandateUpsert = { outcome: 'CREATED' | 'UPDATED'; mandate: MandateRow } | { outcome: 'AGENT_NOT_ACTIVE' | 'AGENT_NOT_FOUND' };

export interface DirectoryQuery {
  /** Compared case-insensitively. */
  ownerEntity?: string | undefined;
  limit: number;
  offset: number;
}

/** The know-your-agent tables (agents, agent_mandates); every call bounded in time, lists read in one query. */
export function createKyaStore(db: Database) {
  const bounded = <T>(work: Promise<T>, operation: string) => boundedCall(work, STORE_TIMEOUT_MS, operation);
  const activeDiscoverable = and(eq(agents.discoverable, true), eq(agents.status, 'ACTIVE'));

  return {
    /** A registration: the agent and, when given, its mandate, in one transaction. */
    async insertAgent(agent: AgentRow, mandate: MandateRow | null): Promise<void> {
      const work = db.transaction(async (tx) => {
        await tx.insert(agents).values(agent);
        if (mandate) await tx.insert(agentMandates).values(mandate);
      });
      await bounded(work, 'insert into agents');
    },

    /** Agents with their mandates, by agentId: one query for the batch (a DataLoader's batch function). */
    async agentsWithMandates(agentIds: readonly string[]): Promise<Map<string, AgentWithMandate>> {
      const ids = [...new Set(agentIds)];
      if (ids.length === 0) return new Map();
      const query = db.select({ agent: agents, mandate: agentMandates }).from(agents).leftJoin(agentMandates, eq(agentMandates.agentId, agents.agentId)).where(inArray(agents.agentId, ids)).execute();
      const rows = await bounded(query, 'select from agents with agent_mandates');
      return new Map(rows.map((row) => [row.agent.agentId, { agent: row.agent, mandate: row.mandate }]));
    },

    /**
     * Creates the agent's mandate or updates it (keeping its mandateId and createdAt), only while the
     * agent is ACTIVE: the agent's row is locked, so a revocation cannot slip in between.
     */
    async upsertMandate(mandate: MandateRow): Promise<MandateUpsert> {
      const work = db.transaction(async (tx): Promise<MandateUpsert> => {
        const [agent] = await tx.select({ status: agents.status }).from(agents).where(eq(agents.agentId, mandate.agentId)).for('update');
        if (!agent) return { outcome: 'AGENT_NOT_FOUND' };
        if (agent.status !== 'ACTIVE') return { outcome: 'AGENT_NOT_ACTIVE' };
        const { mandateId: _id, agentId: _agent, createdAt: _created, ...changes } = mandate;
        const [row] = await tx
          .insert(agentMandates)
          .values(mandate)
          .onConflictDoUpdate({ target: agentMandates.agentId, set: changes })
          // xmax is 0 on a row this statement inserted, and set on one it updated.
          .returning({ ...getTableColumns(agentMandates), inserted: sql<boolean>`(xmax = 0)` });
        const { inserted, ...stored } = row!;
        return { outcome: inserted ? 'CREATED' : 'UPDATED', mandate: stored };
      });
      return bounded(work, 'upsert into agent_mandates');
    },

    /**
     * Revokes an active agent. Answers the agent's row as it now is (a second revocation changes
     * nothing and answers the first one's time), or undefined when there is no such agent.
     */
    async revoke(agentId: string, now: Date): Promise<AgentRow | undefined> {
      const work = db.transaction(async (tx) => {
        const [revoked] = await tx
          .update(agents)
          .set({ status: 'REVOKED', revokedAt: now })
          .where(and(eq(agents.agentId, agentId), eq(agents.status, 'ACTIVE')))
          .returning();
        if (revoked) return revoked;
        const [existing] = await tx.select().from(agents).where(eq(agents.agentId, agentId));
        return existing;
      });
      return bounded(work, 'revoke agent');
    },

    /** Active, discoverable agents by registration time (oldest first), optionally of one owner: one query. */
    async directory(query: DirectoryQuery): Promise<AgentRow[]> {
      const owner = query.ownerEntity === undefined ? undefined : sql`lower(${agents.ownerEntity}) = lower(${query.ownerEntity})`;
      const select = db
        .select()
        .from(agents)
        .where(owner ? and(activeDiscoverable, owner) : activeDiscoverable)
        .orderBy(asc(agents.registeredAt), asc(agents.agentId))
        .limit(query.limit)
        .offset(query.offset)
        .execute();
      return bounded(select, 'select from agents (directory)');
    },
  };
}

export type KyaStore = ReturnType<typeof createKyaStore>;
