// Preloaded into Alto (node --import): Alto 0.0.20's RPC server listens on 0.0.0.0 with no flag to change it, and
// the bench keeps every listener on loopback, so a listen on every interface is made a listen on 127.0.0.1.
import net from "node:net";

const listen = net.Server.prototype.listen;
const everywhere = (host) => host === undefined || host === "0.0.0.0" || host === "::";
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "object" && args[0] !== null && "port" in args[0] && everywhere(args[0].host))
    args[0] = { ...args[0], host: "127.0.0.1" };
  else if (typeof args[0] === "number" && (typeof args[1] !== "string" || everywhere(args[1])))
    args.splice(1, typeof args[1] === "string" ? 1 : 0, "127.0.0.1");
  return listen.apply(this, args);
};
