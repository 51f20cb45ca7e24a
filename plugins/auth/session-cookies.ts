// The session and pending-second-factor cookies: HttpOnly, SameSite=Lax, Secure when served over HTTPS.
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { SESSION_COOKIE, TWO_FACTOR_COOKIE } from "../../host/auth/sessions.ts";

function options(c: Context, expires?: Date) {
  const secure = new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
  return { path: "/", httpOnly: true, sameSite: "Lax" as const, secure, ...(expires ? { expires } : {}) };
}

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
