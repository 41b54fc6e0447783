/**
 * The playground's last request as a curl command. Imports nothing (no Preact, no session, no
 * `location`): its unit test (test/unit/curl-command.test.ts) runs it under Node.
 */

/** The shell variable the copied command reads a session token from. */
export const SESSION_TOKEN_VARIABLE = 'PSS_SESSION_TOKEN';

/** The credential a command carries: an API key, or the session (the playground's `Credential`s). */
export type CurlCredential = { kind: 'apiKey'; key: string } | { kind: 'bearer' };

/** Single quotes for the shell: nothing inside is expanded, a quote in the text closes and reopens. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A POST of `body` as JSON to `baseUrl` + `path`. An API key is the person's own, to paste into a
 * script; the session token is not copied (pasted into a chat or a ticket it would open the whole
 * account): the command reads it from $PSS_SESSION_TOKEN instead, in double quotes so the shell
 * expands it.
 */
export function curlCommand({
  baseUrl,
  path,
  body,
  credential,
}: {
  baseUrl: string;
  path: string;
  body: object;
  credential: CurlCredential;
}): string {
  const authorization =
    credential.kind === 'bearer'
      ? `-H "Authorization: Bearer $${SESSION_TOKEN_VARIABLE}"`
      : `-H ${shellQuote(`X-API-Key: ${credential.key}`)}`;
  return [
    `curl -s -X POST ${baseUrl}${path}`,
    authorization,
    `-H 'Content-Type: application/json'`,
    `-d ${shellQuote(JSON.stringify(body))}`,
  ].join(' ');
}
