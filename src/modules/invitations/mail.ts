// Invitation mail over SMTP (BRAINBOX_SMTP_URL) with nodemailer. A mail that cannot be sent never undoes
// the invitation: the inviter has the link either way, and the answer says whether the mail went out.
import nodemailer from "nodemailer";
import type { Logger } from "../../lib/log";

/** Bounds on one delivery: an SMTP server that stops answering costs the request at most this long. */
const TIMEOUT_MS = 10_000;

export interface InvitationMail {
  to: string;
  inviter: string;
  what: string;
  url: string;
  expiresAt: string;
}

export async function sendInvitation(smtpUrl: string, from: string, mail: InvitationMail, log?: Logger): Promise<{ sent: boolean; error?: string }> {
  const transport = nodemailer.createTransport(smtpUrl, { from });
  Object.assign(transport.options, { connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
  try {
    await transport.sendMail({
      to: mail.to,
      subject: `${mail.inviter} invited you to ${mail.what} on Brainbox`,
      text: [
        `${mail.inviter} invited you to ${mail.what} on Brainbox.`,
        "",
        `Accept the invitation (sign in with the account of ${mail.to}):`,
        mail.url,
        "",
        `The link works once and expires at ${mail.expiresAt}.`,
      ].join("\n"),
    });
    return { sent: true };
  } catch (error) {
    log?.warn("invitation mail not sent", { error: String(error) });
    return { sent: false, error: "The mail could not be sent; give the link to the person yourself" };
  } finally {
    transport.close();
  }
}
