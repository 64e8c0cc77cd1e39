// Staff CLI: grant a back-office role (making the account when the e-mail has none, its generated
// password printed alone as the last line), revoke it, list the staff. Every change goes to the audit log as `cli`.
import { parseArgs } from "node:util";
import { z } from "zod";
import { STAFF_ROLES, isStaffRole } from "@/lib/admin/permissions";
import { isDomainError } from "@/lib/errors";
import { CLI_ACTOR } from "@/lib/services/audit";
import { grantStaffRole, listStaff, revokeStaffRole } from "@/lib/services/staff";
import { UsageError, runCli, withDatabase } from "./lib/cli";

const USAGE = `Usage:
  npm run --silent staff:grant -- --email EMAIL --role ${STAFF_ROLES.join("|")}
  npm run staff:revoke -- --email EMAIL
  npm run staff:list

Roles: admin (everything, staff management), operator (orders, fulfilment, refunds, stock),
marketer (campaigns, promo codes, reading orders), support (reading orders, resending e-mails).
When no account has the e-mail, grant makes one and prints its password alone as the last line;
change it on the account page after signing in. Such an account counts as confirmed. A role on an
account that exists takes effect once the account has confirmed its address (grant sends the link).`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: "string" }, role: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (!["grant", "revoke", "list"].includes(command)) throw new UsageError(`unknown command "${command}"`);
  const email = values.email?.trim();
  if (command !== "list" && (!email || !z.email().safeParse(email).success)) throw new UsageError("--email must be an e-mail address");
  if (command === "grant" && !isStaffRole(values.role)) throw new UsageError(`--role must be one of ${STAFF_ROLES.join(", ")}`);

  await withDatabase(async (db) => {
    if (command === "grant") {
      let granted;
      try {
        // React Email does not render under this process's react-server condition: the app's worker writes the mail.
        granted = await grantStaffRole(db, CLI_ACTOR, email!, values.role as (typeof STAFF_ROLES)[number], { deferMail: true });
      } catch (err) {
        if (isDomainError(err, "last_admin")) throw new UsageError("this is the store's last admin; make another admin first");
        throw err;
      }
      const was = granted.previousRole && granted.previousRole !== granted.role ? ` (was ${granted.previousRole})` : "";
      if (granted.generatedPassword) {
        console.error(
          `Created the account ${granted.email} with the role ${granted.role}. Its password is on the next line, shown only now:\n` +
            "sign in at /sign-in and change it on /account.",
        );
        console.log(granted.generatedPassword);
      } else if (granted.inEffect) {
        console.log(`${granted.email} now has the role ${granted.role}${was}.`);
      } else {
        console.log(
          `${granted.email} now has the role ${granted.role}${was}, waiting: the account has not confirmed its e-mail address, ` +
            "so the role gives no access until it does. The running app mails it a confirmation link.",
        );
      }
    } else if (command === "revoke") {
      let role;
      try {
        role = await revokeStaffRole(db, CLI_ACTOR, email!);
      } catch (err) {
        if (isDomainError(err, "last_admin")) throw new UsageError("this is the store's last admin; make another admin first");
        throw err;
      }
      if (!role) throw new UsageError(`${email} has no staff role`);
      console.log(`${email} no longer has the role ${role}.`);
    } else {
      const staff = await listStaff(db);
      if (staff.length === 0) console.log("No staff.");
      else console.table(staff.map((s) => ({ email: s.email, role: s.role, since: s.grantedAt.toISOString(), by: s.grantedBy })));
    }
  });
}

runCli("staff", () => main(process.argv.slice(2)), `\n${USAGE}`);
