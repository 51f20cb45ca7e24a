// The creation parameters an addon factory hands the root (AddonInstanceCreated's `params`): the ABI encoding of the
// factory's own creation event's fields after the instance address, decoded here by the event's own ABI.
import { type AbiEvent, type DecodeAbiParametersReturnType, decodeAbiParameters, type Hex } from "viem";

type FieldsAfterInstance<event extends AbiEvent> = event["inputs"] extends readonly [unknown, ...infer rest]
  ? rest extends AbiEvent["inputs"]
    ? rest
    : never
  : never;

/** Decodes `params` as the fields of `event` after its first (the instance), e.g. [creator, flows, cutoff, hashlock]. */
export function decodeCreationParams<event extends AbiEvent>(
  event: event,
  params: Hex,
): DecodeAbiParametersReturnType<FieldsAfterInstance<event>> {
  return decodeAbiParameters(event.inputs.slice(1) as FieldsAfterInstance<event>, params);
}
