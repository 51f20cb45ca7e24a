// The session and pending-second-factor cookies: HttpOnly, SameSite=Lax, Secure when served over HTTPS.
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { SESSION_COOKIE, TWO_FACTOR_COOKIE } from "../../host/auth/sessions.ts";

/** The cookies' attributes for a request to `url`; `forwardedProto` is its X-Forwarded-Proto header, if any. */
export function cookieOptions(url: string, forwardedProto: string | undefined, expires?: Date) {
  const secure = new URL(url).protocol === "https:" || forwardedProto === "https";
  return { path: "/", httpOnly: true, sameSite: "Lax" as const, secure, ...(expires ? { expires } : {}) };
}

const options = (c: Context, expires?: Date) => cookieOptions(c.req.url, c.req.header("x-forwarded-proto"), expires);

export function setSessionCookie(c: Context, token: string, expires: Date) {
  deleteCookie(c, TWO_FACTOR_COOKIE, options(c));
  setCookie(c, SESSION_COOKIE, token, options(c, expires));
}

export function setTwoFactorCookie(c: Context, token: string, expires: Date) {
  setCookie(c, TWO_FACTOR_COOKIE, token, options(c, expires));
}

export function clearSessionCookies(c: Context) {
  deleteCookie(c, SESSION_COOKIE, options(c));
  deleteCookie(c, TWO_FACTOR_COOKIE, options(c));
}
