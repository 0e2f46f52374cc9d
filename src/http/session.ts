const PRINTABLE = /^[\x20-\x7e]{1,200}$/;

/** The client's session id from `X-Pincher-Session`, when it is 1–200 printable ASCII characters. */
export function sessionHeader(value: string | undefined): string | undefined {
  return value && PRINTABLE.test(value) ? value : undefined;
}
