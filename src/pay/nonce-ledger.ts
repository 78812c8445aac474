// Replay guard for EIP-3009 nonces on our side of the chain.
// The token refuses a second transferWithAuthorization with the same nonce, but only at settle time,
// which comes AFTER the job ran. Without a ledger, one signed header could buy any number of
// concurrent jobs and only the first would be paid. So: reserve before the job, settle last.

export interface NonceLedger {
  /**
   * Claims `nonce` for `payer`. Resolves true for exactly one caller; false if the nonce is
   * already reserved or settled. Must be ATOMIC (one winner among concurrent requests and across
   * processes sharing the store: an INSERT on a primary key, never read-then-write) and DURABLE
   * (committed before the job starts, so a restart cannot forget a reservation and re-serve it).
   * Keyed by nonce alone: stricter than the chain (which keys by payer and nonce), harmless with
   * 32 random bytes per authorization.
   */
  reserve(nonce: string, payer: string): Promise<boolean>;
  /** Records the settlement transaction; the nonce stays taken forever. */
  markSettled(nonce: string, tx: string): Promise<void>;
  /**
   * Frees a reservation that will not be settled (facilitator rejected it, the job failed, or the
   * result was thin), so the payer may present the same authorization again. Never frees a settled
   * nonce. If settle failed with an unknown outcome (facilitator unavailable), do NOT release: the
   * transfer may have landed; reconcile against the token's authorizationState first.
   */
  release(nonce: string): Promise<void>;
}

type Entry = { payer: string; state: "reserved" } | { payer: string; state: "settled"; tx: string };

/** For tests and single-process experiments only: forgets everything on restart (not durable). */
export class MemoryNonceLedger implements NonceLedger {
  private readonly entries = new Map<string, Entry>();

  async reserve(nonce: string, payer: string): Promise<boolean> {
    const key = nonce.toLowerCase(); // hex case must not make a second nonce out of the same bytes
    if (this.entries.has(key)) return false;
    this.entries.set(key, { payer: payer.toLowerCase(), state: "reserved" });
    return true;
  }

  async markSettled(nonce: string, tx: string): Promise<void> {
    const key = nonce.toLowerCase();
    const payer = this.entries.get(key)?.payer ?? "";
    this.entries.set(key, { payer, state: "settled", tx });
  }

  async release(nonce: string): Promise<void> {
    const key = nonce.toLowerCase();
    if (this.entries.get(key)?.state === "reserved") this.entries.delete(key);
  }

  /** Test helper: what the ledger holds for a nonce. */
  lookup(nonce: string): Readonly<Entry> | undefined {
    return this.entries.get(nonce.toLowerCase());
  }
}
