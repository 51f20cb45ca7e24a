// Unit tests run plugin code without starting the platform: registering the plugins' declared error codes,
// permissions and revert rules here lets that code throw and check them as it does once the platform has started.
import { composePlugins, registerPlugins } from "../../host/plugin-host.ts";
import { pluginDeclarations } from "./plugin-declarations.ts";

registerPlugins(composePlugins(await pluginDeclarations()));
