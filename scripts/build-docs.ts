// npm run build:docs: regenerates docs/configuration.md from the core's and the plugins' settings schemas, and
// docs/contract-errors.md from the contract error table.
import { writeFileSync } from "node:fs";
import { CONFIG_DOC_PATH, configurationDoc } from "./config-doc.ts";
import { CONTRACT_ERRORS_DOC_PATH, contractErrorsDoc } from "./contract-errors-doc.ts";

writeFileSync(CONFIG_DOC_PATH, configurationDoc());
console.log(`wrote ${CONFIG_DOC_PATH}`);
writeFileSync(CONTRACT_ERRORS_DOC_PATH, contractErrorsDoc());
console.log(`wrote ${CONTRACT_ERRORS_DOC_PATH}`);
