/**
 * Canonical JSON (keys sorted by code unit, compact): the general writer and the action writer
 * the plan id hashes and the saved plan's action lines share. Other modules use it through this
 * file only.
 */
export { actionJsonWriter, isPlainRecord, plannedActionJsonWriter } from './action-json.js';
export { canonicalJson, canonicalMemberJson, canonicalSha256 } from './canonical-json.js';
export { securitySectionJson } from './security-json.js';
