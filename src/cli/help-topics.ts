// `rsapi help exit-codes` and `rsapi help environment`: topics beside the commands' help (the root help lists both briefly).

/** The exit codes as the root help shows them (a script's `case $?` reads this). */
export const EXIT_CODES_TEXT = `Exit codes:
  0  success                    5  the service refused the request (4xx)
  1  unexpected failure         6  still rate limited (429) after the retries
  2  usage: bad flag or value   7  network: refused, reset, DNS, timeout
  3  authentication refused,    8  server fault (5xx) or not the JSON expected,
     or no key configured          or no per-check results for --fail-on-check & co.
  4  not found (404)           10  a gate (--fail-on, --min-score, --fail-on-check,
                                   --fail-on-importance, --max-drop) failed
                               11  the output printed, but the history (--record,
                                   history ...) could not be read or written
                              130  interrupted (Ctrl-C)
                              141  bulk create: stdout closed before all were done
`;

const EXIT_CODES_TOPIC = `${EXIT_CODES_TEXT}
Not configured: no base URL anywhere (flag, RSAPI_BASE_URL, profile) is a usage error (2);
a base URL without a key is an authentication failure (3), as a refused key is.
`;

const ENVIRONMENT_TOPIC = `Environment variables. A flag wins over a variable; a variable wins over the stored profile.
An empty variable counts as unset.

  RSAPI_BASE_URL     service address, as --base-url
  RSAPI_API_KEY      API key, as --api-key (never stored)
  RSAPI_PROFILE      stored profile to use, as --profile
  RSAPI_OUTPUT       output format, as -o (table, json, ndjson, csv, tsv)
  RSAPI_TIMEOUT      per-request timeout in seconds, as --timeout
  RSAPI_RETRIES      retries after a failed attempt (0 to 10), as --retries
  RSAPI_CONFIG_DIR   directory of the settings file (\`rsapi config path\` prints it)
  RSAPI_DEBUG=1      trace each request and print stack traces, as --verbose
  RSAPI_RECORD=1     record every report read in the history, as --record
  RSAPI_HISTORY      where the history lives (a SQLite path or a postgres:// URL), as --history;
                     default $XDG_DATA_HOME/rsapi/history.db, else ~/.local/share/rsapi/history.db
  NO_COLOR=1         no colour; FORCE_COLOR=1 colour even into a pipe
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                     proxy for the requests to the service (a URL, e.g. http://proxy:3128)

In CI, with no settings file:
  $ RSAPI_BASE_URL=https://rank.example.com RSAPI_API_KEY=$KEY RSAPI_OUTPUT=json rsapi reports list
`;

const TOPICS: Readonly<Record<string, string>> = { 'exit-codes': EXIT_CODES_TOPIC, environment: ENVIRONMENT_TOPIC };

export const HELP_TOPIC_NAMES: readonly string[] = Object.keys(TOPICS);

/** The text of a help topic, or undefined when the word names none. */
export function helpTopic(name: string): string | undefined {
  return Object.hasOwn(TOPICS, name) ? TOPICS[name] : undefined;
}
