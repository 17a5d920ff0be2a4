import { jwtVerify, type JWTPayload } from 'jose';

/**
 * The longest a visitor token may live, from when it was issued (`iat`, or now when it does not
 * say) to when it expires (`exp`): the platform's own examples sign tokens for one or two hours,
 * and a token that never expires would let a visitor in for good once it leaks.
 */
export const VISITOR_TOKEN_MAX_LIFETIME_SECONDS = 24 * 60 * 60;
/** How far the clocks of the visitor's sign-in server and Quire may disagree. */
export const VISITOR_TOKEN_CLOCK_SKEW_SECONDS = 30;

export interface VisitorToken {
  claims: JWTPayload;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * A visitor token's claims when it is signed (HS256) with the site's key, carries an `exp` that
 * is not past and at most VISITOR_TOKEN_MAX_LIFETIME_SECONDS away, and was not issued in the
 * future; null for any other token.
 */
export async function verifyVisitorToken(token: string, key: string, now: Date): Promise<VisitorToken | null> {
  const skew = VISITOR_TOKEN_CLOCK_SKEW_SECONDS;
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(token, new TextEncoder().encode(key), { algorithms: ['HS256'], currentDate: now, clockTolerance: skew, requiredClaims: ['exp'] }));
  } catch {
    return null;
  }
  const seconds = Math.floor(now.getTime() / 1000);
  const expiresAt = claims.exp!;
  if (expiresAt > seconds + VISITOR_TOKEN_MAX_LIFETIME_SECONDS + skew) return null;
  if (claims.iat !== undefined && (claims.iat > seconds + skew || expiresAt - claims.iat > VISITOR_TOKEN_MAX_LIFETIME_SECONDS)) return null;
  return { claims, expiresAt };
}
