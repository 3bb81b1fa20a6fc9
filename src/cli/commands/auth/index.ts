// `rsapi auth`: log in (store a checked key), show what is in use, log out.
import type { ParentCommand, Invocation } from '../../runtime/handler.js';
import { registerLogin } from './login.js';
import { registerLogout } from './logout.js';
import { registerStatus } from './status.js';
import { registerSwitch } from './switch.js';

export function registerAuth(program: ParentCommand, invocation: Invocation): void {
  const auth = program.command('auth').description('Log in, check and forget the API key; switch between profiles');
  auth.addHelpText(
    'after',
    `
Examples:
  $ rsapi auth login
  $ printenv RANK_TOKEN | rsapi auth login --with-token --base-url https://rank.example.com
  $ rsapi auth status
  $ rsapi auth status --all
  $ rsapi auth switch staging
  $ rsapi auth logout --profile staging`,
  );
  registerLogin(auth, invocation);
  registerStatus(auth, invocation);
  registerLogout(auth, invocation);
  registerSwitch(auth, invocation);
}
