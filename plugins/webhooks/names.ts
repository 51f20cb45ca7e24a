// The plugin's task names as other code enqueues them (`<plugin id>:<name>`).
export const PLUGIN_ID = "webhooks";
export const FAN_OUT_TASK = `${PLUGIN_ID}:fan-out`;
export const DELIVER_TASK = `${PLUGIN_ID}:deliver`;
