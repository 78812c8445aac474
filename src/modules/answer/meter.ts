// The seam for plans (bank and quota): the answer routes call an AskMeter, when one is given, before
// answering and after. Without one, asks are unmetered and the v1 answer says `quota: null, bank: null`.

export interface MeterReading {
  /** The v1 answer's `quota` (and the body beside a 429). */
  quota: Record<string, unknown> | null;
  /** Questions left in a Free account's bank. */
  bank: number | null;
}

export interface AskMeter {
  /**
   * Before answering. Refuse with AppError("bank_exhausted") (402) or AppError("quota_exceeded", ..., {quota})
   * (429); otherwise count the ask and return the reading shown in the answer.
   */
  admit(ask: { accountId: string; brainId: string; surface: "v1" | "unversioned" }): Promise<MeterReading>;
  /** After answering (e.g. give a thin answer back); may return an updated reading. */
  /** The answer failed with an error (not a thin answer): give the question back. */
  refund?(ask: { accountId: string; brainId: string; surface: "v1" | "unversioned" }, reading: MeterReading): Promise<void>;
  settle?(ask: { accountId: string; brainId: string; surface: "v1" | "unversioned"; askId: string; thin: boolean }): Promise<MeterReading | void>;
}

export const UNMETERED: MeterReading = { quota: null, bank: null };
