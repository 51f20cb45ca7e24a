// npm run build:docs: regenerates docs/configuration.md from the core's and the plugins' settings schemas.
import { writeFileSync } from "node:fs";
import { CONFIG_DOC_PATH, configurationDoc } from "./config-doc.ts";

writeFileSync(CONFIG_DOC_PATH, configurationDoc());
console.log(`wrote ${CONFIG_DOC_PATH}`);
