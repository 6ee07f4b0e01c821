import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults to argon2id with OWASP's parameters (19 MiB, t=2, p=1).
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;

/**
 * The hash of a random password, made once per process. Checking a password against it costs what
 * checking a real one costs, so a sign-in for an unknown user takes as long as for a known one and
 * usernames cannot be found by timing. Call it early to have it ready.
 */
export const dummyHash = (): Promise<string> => (dummy ??= hashPassword(randomBytes(24).toString('base64')));
