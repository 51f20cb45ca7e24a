// An addon type registered in a system's AddonRegistry and its addon created, as the platform does for each system:
// the factory clone the tests then use.
import { type Address, encodeFunctionData, keccak256, toHex, zeroAddress } from "viem";
import { ROLES, type SystemFixture, theEvent } from "./system-fixture.ts";

const FACTORY_KIND = 1;

export interface AddonFactory {
  factory: Address;
  factoryImplementation: Address;
  instanceImplementation: Address;
}

/** Registers `typeName` (factory kind: `factoryName` makes `instanceName` clones) and creates its addon. */
export async function createAddonFactory(
  f: SystemFixture,
  typeName: string,
  factoryName: string,
  instanceName: string,
): Promise<AddonFactory> {
  await f.send(0, f.accessManager, "SystemAccessManager", "grantRoles", [f.manager, [ROLES.ADDON_MANAGER]]);
  const registry = await f.clone("AddonRegistry", await f.deploy("AddonRegistry", [f.forwarder]), [f.accessManager]);
  await f.send(0, f.accessManager, "SystemAccessManager", "grantRole", [ROLES.SYSTEM_MODULE, registry]);
  const [factoryImplementation, instanceImplementation] = [await f.deploy(factoryName), await f.deploy(instanceName)];
  await f.send(1, registry, "AddonRegistry", "registerAddonType", [
    typeName,
    FACTORY_KIND,
    factoryImplementation,
    instanceImplementation,
    false,
  ]);
  const init = encodeFunctionData({
    abi: f.chain.abi(factoryName),
    functionName: "initialize",
    args: [registry, zeroAddress],
  });
  const { logs } = await f.send(1, registry, "AddonRegistry", "createAddon", [
    keccak256(toHex(typeName)),
    typeName,
    init,
  ]);
  return {
    factory: theEvent(logs, "AddonFactoryCreated").addon as Address,
    factoryImplementation,
    instanceImplementation,
  };
}
