// One PKCS#11 token (an HSM partition, or a SoftHSM2 token in development): EC secp256k1 key pairs generated inside
// it, found again by label, and digests signed with CKM_ECDSA inside it. No private key value is ever read: the keys
// are sensitive and non-extractable, and only handles and public points cross the interface.
import pkcs11js from "pkcs11js";
import type { Address } from "viem";
import { addressOfPoint, type PublicPoint, publicPoint } from "../ecdsa.ts";

/** DER of secp256k1's object identifier (1.3.132.0.10), the CKA_EC_PARAMS of every key. */
const SECP256K1_PARAMS = Buffer.from("06052b8104000a", "hex");

export interface Pkcs11Settings {
  module: string;
  tokenLabel: string;
  userPin: string;
}

/** A private key in the token, its public point and that point's address. */
export interface TokenKey {
  label: string;
  address: Address;
  point: PublicPoint;
  handle: pkcs11js.Handle;
}

export interface Pkcs11Token {
  findKey(label: string): TokenKey | undefined;
  /** A new key pair on the token (CKA_TOKEN): the private half sensitive, non-extractable, for signing only. */
  generateKey(label: string): Promise<TokenKey>;
  /** The raw r || s of CKM_ECDSA over the 32-byte digest. */
  signDigest(key: TokenKey, digest: Buffer): Promise<Buffer>;
  close(): void;
}

// A module is loaded and initialised once per process: C_Initialize twice is an error.
const modules = new Map<string, pkcs11js.PKCS11>();

function loadModule(path: string): pkcs11js.PKCS11 {
  const loaded = modules.get(path);
  if (loaded) return loaded;
  const module = new pkcs11js.PKCS11();
  module.load(path);
  try {
    module.C_Initialize();
  } catch (error) {
    // Another binding of this process (a second worker thread) initialised the same module.
    if ((error as { code?: number }).code !== pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED) throw error;
  }
  modules.set(path, module);
  return module;
}

function findSlot(module: pkcs11js.PKCS11, tokenLabel: string): pkcs11js.Handle {
  for (const slot of module.C_GetSlotList(true)) {
    if (module.C_GetTokenInfo(slot).label.trim() === tokenLabel) return slot;
  }
  throw new Error(`No PKCS#11 token labelled "${tokenLabel}" in ${module.libPath}`);
}

export function openPkcs11Token(settings: Pkcs11Settings): Pkcs11Token {
  const module = loadModule(settings.module);
  const session = module.C_OpenSession(
    findSlot(module, settings.tokenLabel),
    pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION,
  );
  try {
    module.C_Login(session, pkcs11js.CKU_USER, settings.userPin);
  } catch (error) {
    // The login state is the application's: a second session of this process finds it logged in already.
    if ((error as { code?: number }).code !== pkcs11js.CKR_USER_ALREADY_LOGGED_IN) throw error;
  }
  // One operation at a time on the session (C_SignInit .. C_Sign is a pair): calls wait their turn.
  let turn: Promise<unknown> = Promise.resolve();
  const serially = <T>(operation: () => Promise<T>): Promise<T> => {
    const result = turn.then(operation);
    turn = result.catch(() => undefined);
    return result;
  };

  function keyOf(label: string, privateHandle: pkcs11js.Handle, publicHandle: pkcs11js.Handle): TokenKey {
    const [point] = module.C_GetAttributeValue(session, publicHandle, [{ type: pkcs11js.CKA_EC_POINT }]);
    const uncompressed = uncompressedPoint(point.value as Buffer);
    return { label, handle: privateHandle, address: addressOfPoint(uncompressed), point: publicPoint(uncompressed) };
  }

  function findObject(label: string, objectClass: number): pkcs11js.Handle | undefined {
    module.C_FindObjectsInit(session, [
      { type: pkcs11js.CKA_CLASS, value: objectClass },
      { type: pkcs11js.CKA_LABEL, value: label },
    ]);
    try {
      return module.C_FindObjects(session, 1)[0];
    } finally {
      module.C_FindObjectsFinal(session);
    }
  }

  return {
    findKey(label) {
      const privateHandle = findObject(label, pkcs11js.CKO_PRIVATE_KEY);
      const publicHandle = findObject(label, pkcs11js.CKO_PUBLIC_KEY);
      if (privateHandle === undefined || publicHandle === undefined) return undefined;
      return keyOf(label, privateHandle, publicHandle);
    },
    generateKey(label) {
      return serially(async () => {
        const id = Buffer.from(label);
        const keys = await module.C_GenerateKeyPairAsync(
          session,
          { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
          [
            { type: pkcs11js.CKA_TOKEN, value: true },
            { type: pkcs11js.CKA_LABEL, value: label },
            { type: pkcs11js.CKA_ID, value: id },
            { type: pkcs11js.CKA_EC_PARAMS, value: SECP256K1_PARAMS },
            { type: pkcs11js.CKA_VERIFY, value: true },
            { type: pkcs11js.CKA_ENCRYPT, value: false },
            { type: pkcs11js.CKA_WRAP, value: false },
          ],
          [
            { type: pkcs11js.CKA_TOKEN, value: true },
            { type: pkcs11js.CKA_PRIVATE, value: true },
            { type: pkcs11js.CKA_LABEL, value: label },
            { type: pkcs11js.CKA_ID, value: id },
            { type: pkcs11js.CKA_SENSITIVE, value: true },
            { type: pkcs11js.CKA_EXTRACTABLE, value: false },
            { type: pkcs11js.CKA_SIGN, value: true },
            { type: pkcs11js.CKA_DECRYPT, value: false },
            { type: pkcs11js.CKA_UNWRAP, value: false },
            { type: pkcs11js.CKA_DERIVE, value: false },
          ],
        );
        return keyOf(label, keys.privateKey, keys.publicKey);
      });
    },
    signDigest(key, digest) {
      if (digest.length !== 32) throw new Error("A digest to sign is 32 bytes");
      return serially(async () => {
        module.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, key.handle);
        return module.C_SignAsync(session, digest, Buffer.alloc(64));
      });
    },
    close() {
      module.C_CloseSession(session);
    },
  };
}

/** CKA_EC_POINT is a DER OCTET STRING around the point (PKCS#11 2.40); some modules give the bare point. */
export function uncompressedPoint(value: Buffer): Uint8Array {
  if (value.length === 65 && value[0] === 4) return value;
  if (value.length === 67 && value[0] === 0x04 && value[1] === 65) return value.subarray(2);
  throw new Error(`Unexpected CKA_EC_POINT of ${value.length} bytes`);
}
